// What the load drivers (chaos_driver, cluster_driver) conclude from their logs of acknowledgements.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace idcodec_test {

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

inline double percentile(std::vector<double>& values, double p) {
    if (values.empty()) return 0;
    const auto at = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1));
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(at), values.end());
    return values[at];
}

}  // namespace idcodec_test
