// Memo of alphabet sequences that depend only on the settings and a start index (hashids: the lottery character;
// sqids: the offset). Step k of a start is built once, kept while a byte budget lasts, and reused by every later
// call with the same settings; beyond the budget, steps are built into a scratch slot of the walk instead.
#pragma once
#include "core/common/no_postgres.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/common/footprint.hpp"

namespace idcodec {

// Step needs `std::size_t bytes() const`: the heap memory one step takes, its own allocation included.
template <class Step>
class StepMemo {
public:
    // Starts beyond this many are never memoized (a huge alphabet would otherwise need a huge table of chains).
    static constexpr std::size_t max_starts = 4096;

    StepMemo() = default;
    StepMemo(std::size_t starts, std::size_t budget_bytes)
        : chains_(std::min(starts, max_starts)), budget_(budget_bytes) {}

    // The most this memo holds: its budget (which every kept step is charged against) and the table of chains.
    std::size_t footprint() const noexcept { return budget_ + heap_bytes(chains_); }

    // Gives steps 0, 1, 2, ... of one start. make(previous) builds the next step; previous is null for step 0.
    template <class Make>
    class Walk {
    public:
        Walk(StepMemo& memo, std::size_t start, Make make)
            : memo_(memo), chain_(start < memo.chains_.size() ? &memo.chains_[start] : nullptr), make_(make) {}

        // The kept step when there is one (the common case, inlined), else a new one.
        const Step& next() {
            if (chain_ != nullptr && taken_ < chain_->size()) [[likely]] {
                current_ = (*chain_)[taken_++].get();
                return *current_;
            }
            return build_next();
        }

        const Step& current() const { return *current_; }

        // Moves the current step into `out` when the memo does not keep it (a step built beyond the budget lives in
        // the walk and would die with it), for a caller that needs it after the walk; false when the memo keeps it.
        bool release_unkept(std::optional<Step>& out) {
            if (!scratch_ || current_ != &*scratch_) [[likely]]
                return false;
            current_ = nullptr;
            out = std::move(scratch_);
            return true;
        }

    private:
        [[gnu::noinline]] const Step& build_next() {
            Step step = make_(current_);
            // the step, its slot in the chain (vectors grow to twice their size) and the chain's own block
            const std::size_t bytes = step.bytes() + 2 * sizeof(std::unique_ptr<const Step>) + heap_bytes(1);
            if (chain_ != nullptr && taken_ == chain_->size() && memo_.used_ + bytes <= memo_.budget_) {
                chain_->push_back(std::make_unique<const Step>(std::move(step)));
                memo_.used_ += bytes;
                current_ = chain_->back().get();
            } else {
                scratch_ = std::move(step);
                current_ = &*scratch_;
            }
            ++taken_;
            return *current_;
        }

        StepMemo& memo_;
        std::vector<std::unique_ptr<const Step>>* chain_;  // null: this start is not memoized
        Make make_;
        std::size_t taken_ = 0;
        const Step* current_ = nullptr;
        std::optional<Step> scratch_;  // made only beyond the budget: most walks never need it
    };

    template <class Make>
    Walk<Make> walk(std::size_t start, Make make) {
        return Walk<Make>(*this, start, make);
    }

private:
    std::vector<std::vector<std::unique_ptr<const Step>>> chains_;
    std::size_t budget_ = 0;
    std::size_t used_ = 0;
};

}  // namespace idcodec
