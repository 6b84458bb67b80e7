// Per-call-site state kept in fn_extra: the prepared configuration for the settings last seen there, and the
// buffers results are written to. Buffers live here, not on the stack, so a result is copied into PostgreSQL memory
// only after the C++ frames that produced it are gone.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/config_cache.hpp"

#include "pg/bridge.hpp"

namespace idcodec::pg {

// The backend's cache of prepared configurations (capacity: GUC idcodec.cache_size).
ConfigCache& backend_cache() noexcept;

template <class Config>
struct CallSite {
    SettingsKey key;
    std::shared_ptr<const Config> config;
    std::string text;
    std::vector<std::string> texts;
    std::vector<std::uint64_t> numbers;
    // Bound with settings arguments that are the same in every call of this call site: its configuration answers
    // every later call without the settings being read or compared again.
    bool settled = false;

    bool matches(std::span<const std::string_view> settings) const noexcept {
        return config != nullptr && key.matches(settings);
    }

    // Looks the settings up in the backend cache, building the configuration with make(StopToken) if needed.
    // `fixed`: the settings come from arguments that never change for this call site (see fixed_arguments).
    template <class Make>
    void bind(std::span<const std::string_view> settings, bool fixed, Make&& make) {
        guarded([&](StopToken stop) {
            SettingsKey new_key = SettingsKey::of(settings);
            std::shared_ptr<const Config> new_config = backend_cache().get<Config>(new_key, [&] { return make(stop); });
            key = std::move(new_key);
            config = std::move(new_config);
        });
        settled = fixed;
    }
};

// Whether the settings arguments (those of them the call passes) are the same in every call of this call site:
// constants of the expression, defaults included. Query parameters are not: PL/pgSQL evaluates an expression again
// and again with the same call site while its variables, which are parameters, change.
inline bool fixed_arguments(FunctionCallInfo fcinfo, std::initializer_list<int> settings_arguments) {
    const Node* call = fcinfo->flinfo->fn_expr;
    if (call == nullptr || !IsA(call, FuncExpr)) return false;
    // The tag is checked above; castNode() would drop const in a server built with assertions.
    const List* arguments = reinterpret_cast<const FuncExpr*>(call)->args;
    for (const int i : settings_arguments)
        if (i < PG_NARGS() && (i >= list_length(arguments) || !IsA(list_nth(arguments, i), Const))) return false;
    return true;
}

// A number as a part of a settings key.
template <class Number>
std::string_view key_part(const Number& number) {
    return {reinterpret_cast<const char*>(&number), sizeof number};
}

// The call site's state, created on first use in fn_mcxt and destroyed when that context is reset or deleted.
template <class Site>
[[gnu::noinline]] Site& create_call_site(FmgrInfo* flinfo) {
    void* memory = MemoryContextAlloc(flinfo->fn_mcxt, sizeof(Site));
    auto* callback =
        static_cast<MemoryContextCallback*>(MemoryContextAlloc(flinfo->fn_mcxt, sizeof(MemoryContextCallback)));
    Site* site = new (memory) Site();
    callback->func = [](void* arg) { static_cast<Site*>(arg)->~Site(); };
    callback->arg = site;
    MemoryContextRegisterResetCallback(flinfo->fn_mcxt, callback);
    flinfo->fn_extra = site;
    return *site;
}

// Inline: every row of a call site looks it up.
template <class Site>
inline Site& call_site(FunctionCallInfo fcinfo) {
    void* const extra = fcinfo->flinfo->fn_extra;
    if (extra == nullptr) [[unlikely]]
        return create_call_site<Site>(fcinfo->flinfo);
    return *static_cast<Site*>(extra);
}

}  // namespace idcodec::pg
