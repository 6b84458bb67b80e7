// Abbreviated keys for sorting TypeIDs: 64-bit numbers, compared unsigned, that never contradict the order of the
// values they summarize (a < b whenever key(a) < key(b)), so a sort compares the numbers first and reads the values
// only when two numbers are equal.
#pragma once
#include "core/common/no_postgres.hpp"

#include <array>
#include <cstdint>
#include <string_view>

#include "core/ids/time_ordered.hpp"

namespace idcodec::time_ordered {

// The keys of one sort. They depend on the prefixes the sort met before, so keys from two abbreviators are not
// comparable. Most tables hold one prefix: the first prefix met keeps 62 bits of each UUID in its keys. The others
// get an order-preserving 14-bit code from a small sorted dictionary, followed by 48 bits of the UUID (a version 7
// UUID's millisecond); a prefix that
// finds no code (the dictionary full, or no code left between its neighbours) shares its lower neighbour's code
// with the greatest UUID bits, which ties it with its neighbours' keys instead of misplacing it.
//
// Holds no pointer and allocates nothing: a sort can keep it in memory it frees without running a destructor.
class TypeIdAbbreviator {
public:
    std::uint64_t key(const TypeId& type_id) noexcept;

    // How many prefixes can have a code of their own.
    static constexpr std::size_t capacity = 128;

private:
    struct Known {
        std::uint32_t code;
        std::uint8_t size;
        std::array<char, max_prefix_length> bytes;
        std::string_view prefix() const noexcept { return {bytes.data(), size}; }
    };

    // The prefix's code, given it a new one when it has none and there is room (`keepable`: short enough to keep);
    // `has_own_code` false when it shares its lower neighbour's (0 for none).
    std::uint32_t code_of(std::string_view prefix, bool keepable, bool& has_own_code) noexcept;
    static Known known(std::string_view prefix, std::uint32_t code) noexcept;

    // Left unset until used (a sort of each group of an ordered aggregate makes an abbreviator).
    bool has_reference_ = false;
    Known reference_;
    bool growing_ = true;  // whether new prefixes may still get codes
    std::size_t count_ = 0;
    std::array<Known, capacity> sorted_;  // the first count_, in prefix order, codes ascending
};

}  // namespace idcodec::time_ordered
