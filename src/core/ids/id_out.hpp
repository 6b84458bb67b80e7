// Where an encoder puts the characters of an ID. TextOut appends them to a string as UTF-8; MatchOut checks them,
// one by one, against an ID that was read, so a decoder can confirm an ID is the one encode would give without
// building a second one.
#pragma once
#include "core/common/no_postgres.hpp"

#include <cstddef>
#include <string>
#include <string_view>

#include "core/common/utf8.hpp"

namespace idcodec {

// `builds_text`: whether the output grows a string, so whether an encoder must hold it to its size limit (a MatchOut
// only reads an ID that was given, and a mismatch, not an error, is its answer).
class TextOut {
public:
    static constexpr bool builds_text = true;
    explicit TextOut(std::string& text) noexcept : text_(text) {}
    void put(char32_t code_point) { utf8::append(text_, code_point); }
    std::size_t size() const noexcept { return text_.size(); }  // bytes

private:
    std::string& text_;
};

class MatchOut {
public:
    static constexpr bool builds_text = false;
    explicit MatchOut(std::string_view expected) noexcept : expected_(expected) {}
    void put(char32_t code_point) noexcept {
        written_ += utf8::width(code_point);
        if (!failed_ && pos_ < expected_.size() && utf8::next(expected_, pos_) == code_point) return;
        failed_ = true;
    }
    // Bytes put so far, as a TextOut would hold: an encoder's loops run the same over both.
    std::size_t size() const noexcept { return written_; }
    bool matched() const noexcept { return !failed_ && pos_ == expected_.size(); }

private:
    std::string_view expected_;
    std::size_t pos_ = 0;
    std::size_t written_ = 0;
    bool failed_ = false;
};

}  // namespace idcodec
