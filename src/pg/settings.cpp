#include "pg/settings.hpp"

namespace idcodec::pg {

char* configured_value(const char* name) {
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
    return value;
}

}  // namespace idcodec::pg
