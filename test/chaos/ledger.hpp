// What the load drivers (chaos_driver, cluster_driver) share: their command line, and what they conclude from their
// logs of acknowledgements.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace idcodec_test {

struct LoadOptions {
    std::string conninfo;
    int connections;
    int seconds;
    std::uint64_t seed = 1;
    bool kill = true;  // chaos_driver's --no-kill clears it
};

// CONNINFO [--connections N] [--seconds S] [--seed N] [--no-kill]; `usage` is printed when CONNINFO is missing.
inline LoadOptions parse_load_options(int argc, char** argv, LoadOptions options, const char* usage) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s\n", usage);
        std::exit(2);
    }
    options.conninfo = argv[1];
    for (int i = 2; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const auto value = [&] { return i + 1 < argc ? std::stoll(argv[++i]) : 0; };
        if (arg == "--connections")
            options.connections = static_cast<int>(std::clamp<long long>(value(), 1, 500));
        else if (arg == "--seconds")
            options.seconds = static_cast<int>(std::clamp<long long>(value(), 1, 86400));
        else if (arg == "--seed")
            options.seed = static_cast<std::uint64_t>(value());
        else if (arg == "--no-kill")
            options.kill = false;
    }
    return options;
}

// Every acknowledged operation ends up in exactly one of verified, lost and wrong; half-applied effects of
// unacknowledged ones count as wrong.
struct Verdict {
    std::uint64_t verified = 0, lost = 0, wrong = 0;
    void count(std::optional<bool> correct, std::uint64_t operations = 1) {  // nothing: missing; false: wrong
        if (!correct) {
            lost += operations;
        } else if (*correct) {
            verified += operations;
        } else {
            wrong += operations;
        }
    }
};

// A code's resolves, as the workers logged them: acknowledged (the call returned) and attempted (sent).
struct Resolves {
    std::uint64_t acknowledged = 0, attempted = 0;
};
using ResolvesByCode = std::map<std::string, Resolves>;

// The resolves of all workers together: they share the hot code.
template <class Log>
ResolvesByCode all_resolves(const std::vector<Log>& logs) {
    ResolvesByCode all;
    for (const Log& log : logs) {
        for (const auto& [code, resolves] : log.resolves) {
            all[code].acknowledged += resolves.acknowledged;
            all[code].attempted += resolves.attempted;
        }
    }
    return all;
}

// A shortened link: its URL and its code.
using Link = std::pair<std::string, std::string>;

// Which link a resolve follows: the hot one three times in four (a viral link), else one the worker shortened.
template <class Random>
const Link& link_to_follow(Random& random, const Link& hot, const std::vector<Link>& own) {
    return own.empty() || random() % 4 != 0 ? hot : own[random() % own.size()];
}

// A code's hit count against its resolves: every acknowledged one is counted (else lost), and no more than were
// attempted (else wrong: a hit counted twice, or from nowhere).
inline void count_hits(Verdict& verdict, std::uint64_t hits, const Resolves& resolves) {
    if (hits > resolves.attempted)
        ++verdict.wrong;
    else if (resolves.acknowledged > 0)
        verdict.count(hits < resolves.acknowledged ? std::nullopt : std::optional(true), resolves.acknowledged);
}

inline double percentile(std::vector<double>& values, double p) {
    if (values.empty()) return 0;
    const auto at = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1));
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(at), values.end());
    return values[at];
}

}  // namespace idcodec_test
