#include <cstdio>
#include <cstring>

#include "pg/settings.hpp"

extern "C" {
#include "storage/fd.h"
}

namespace idcodec::pg {

namespace {

// Whether `option` ("name=value" from -c or --) sets the setting `name` (case aside, and a '-' standing for '_', as
// the server reads its options); its value when it does.
const char* option_value(const char* option, const char* name) {
    const char* equals = strchr(option, '=');
    if (equals == nullptr || static_cast<std::size_t>(equals - option) != strlen(name)) return nullptr;
    for (const char* o = option; o != equals; ++o, ++name) {
        const char c = *o == '-' ? '_' : *o;
        if (pg_ascii_tolower(static_cast<unsigned char>(c)) != pg_ascii_tolower(static_cast<unsigned char>(*name)))
            return nullptr;
    }
    return equals + 1;
}

// The value the server's command line gives the setting (-c name=value, -cname=value, --name=value), read from
// postmaster.opts, where the postmaster writes its arguments (each in double quotes) when it starts; null when it
// gives none.
char* command_line_value(const char* name) {
    FILE* file = AllocateFile("postmaster.opts", "r");
    if (file == nullptr) return nullptr;
    StringInfoData text;
    initStringInfo(&text);
    char chunk[1024];
    for (std::size_t got; (got = fread(chunk, 1, sizeof chunk, file)) > 0;)
        appendBinaryStringInfo(&text, chunk, static_cast<int>(got));
    FreeFile(file);
    char* value = nullptr;
    bool after_dash_c = false;
    for (char* at = strchr(text.data, '"'); at != nullptr;) {
        char* end = strchr(at + 1, '"');
        if (end == nullptr) break;
        *end = '\0';
        const char* argument = at + 1;
        const char* option = nullptr;
        if (after_dash_c)
            option = argument;
        else if (strncmp(argument, "-c", 2) == 0 && argument[2] != '\0')
            option = argument + 2;
        else if (strncmp(argument, "--", 2) == 0)
            option = argument + 2;
        after_dash_c = strcmp(argument, "-c") == 0;
        if (const char* found = option != nullptr ? option_value(option, name) : nullptr) value = pstrdup(found);
        at = strchr(end + 1, '"');
    }
    pfree(text.data);
    return value;
}

}  // namespace

ConfiguredValue configured_value(const char* name) {
    if (char* value = command_line_value(name)) return {value, PGC_S_ARGV};
    ConfigVariable* head = nullptr;
    ConfigVariable* tail = nullptr;
    char* value = nullptr;
    // LOG_SERVER_ONLY: a syntax error quotes the configuration's paths, which the client may not see.
    if (ParseConfigFile(ConfigFileName, true, nullptr, 0, 0, LOG_SERVER_ONLY, &head, &tail) &&
        ParseConfigFile(PG_AUTOCONF_FILENAME, false, nullptr, 0, 0, LOG_SERVER_ONLY, &head, &tail))
        for (const ConfigVariable* item = head; item != nullptr; item = item->next)
            if (pg_strcasecmp(item->name, name) == 0) value = item->value;
    if (value != nullptr) value = pstrdup(value);
    FreeConfigVariables(head);
    return {value, PGC_S_FILE};
}

}  // namespace idcodec::pg
