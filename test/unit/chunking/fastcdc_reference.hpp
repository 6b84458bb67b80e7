// fastcdc-rs 4.0.1's cut loops written plainly, as the reference steps through the bytes (v2020: two bytes per
// step with the Gear table shifted left by one; v2016: one byte per step), with its normalization level and its
// seed (with_level_and_seed: every GEAR entry XOR seed, every GEAR_LS entry XOR seed << 1). The oracle of the
// differential unit tests and the baseline of the benchmark, so the two cannot drift apart.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "core/chunking/fastcdc.hpp"

namespace idcodec::cdc::reference {

class FastCdcLoop final : public Chunker {
public:
    enum class Version { v2016, v2020 };

    FastCdcLoop(Version version, const ChunkerSettings& settings)
        : version_(version), min_(settings.min_size), avg_(settings.avg_size), max_(settings.max_size) {
        const auto masks = fastcdc_masks();
        const unsigned bits = rounded_log2(avg_);
        const auto level = static_cast<unsigned>(settings.normalization);
        mask_s_ = masks[bits + level];
        mask_l_ = masks[bits - level];
        for (std::size_t i = 0; i < 256; ++i) {
            gear_[i] = gear_table()[i] ^ settings.seed;
            shifted_[i] = (gear_table()[i] << 1) ^ (settings.seed << 1);
        }
    }

    Cut cut(std::span<const std::uint8_t> source, bool) const override {
        std::size_t remaining = source.size();
        if (remaining <= min_) return {remaining, 0};
        std::size_t center = avg_;
        if (remaining > max_)
            remaining = max_;
        else if (remaining < center)
            center = remaining;
        return version_ == Version::v2020 ? cut_v2020(source, center, remaining) : cut_v2016(source, center, remaining);
    }

    std::size_t lookahead() const noexcept override { return max_; }
    std::size_t footprint() const noexcept override { return sizeof(*this); }

private:
    Cut cut_v2020(std::span<const std::uint8_t> source, std::size_t center, std::size_t remaining) const {
        const auto& gear = gear_;
        std::uint64_t hash = 0;
        std::size_t index = min_ / 2;
        for (; index < center / 2; ++index) {
            const std::size_t a = index * 2;
            hash = (hash << 2) + shifted_[source[a]];
            if ((hash & (mask_s_ << 1)) == 0) return {a, hash};
            hash += gear[source[a + 1]];
            if ((hash & mask_s_) == 0) return {a + 1, hash};
        }
        for (; index < remaining / 2; ++index) {
            const std::size_t a = index * 2;
            hash = (hash << 2) + shifted_[source[a]];
            if ((hash & (mask_l_ << 1)) == 0) return {a, hash};
            hash += gear[source[a + 1]];
            if ((hash & mask_l_) == 0) return {a + 1, hash};
        }
        return {remaining, hash};
    }

    Cut cut_v2016(std::span<const std::uint8_t> source, std::size_t center, std::size_t remaining) const {
        const auto& gear = gear_;
        std::uint64_t hash = 0;
        std::size_t index = min_;
        for (; index < remaining; ++index) {
            hash = (hash << 1) + gear[source[index]];
            if ((hash & (index < center ? mask_s_ : mask_l_)) == 0) return {index, hash};
        }
        return {index, hash};
    }

    Version version_;
    std::size_t min_, avg_, max_;
    std::uint64_t mask_s_, mask_l_;
    std::array<std::uint64_t, 256> gear_, shifted_;
};

}  // namespace idcodec::cdc::reference
