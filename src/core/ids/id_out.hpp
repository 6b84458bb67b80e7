// Where an encoder puts the characters of an ID. TextOut appends them to a string as UTF-8 (in runs: the string has
// them all after flush()); MatchOut checks them, one by one, against an ID that was read, so a decoder can confirm an
// ID is the one encode would give without building a second one.
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
    TextOut(const TextOut&) = delete;
    TextOut& operator=(const TextOut&) = delete;

    void put(char32_t code_point) {
        if (pending_ > sizeof buffer_ - 4) flush();
        if (code_point < 0x80) {
            buffer_[pending_++] = static_cast<char>(code_point);
        } else {
            pending_ += utf8::write_multibyte(buffer_ + pending_, code_point);
        }
    }
    void put_run(std::u32string_view code_points) {
        for (const char32_t code_point : code_points) put(code_point);
    }
    std::size_t size() const noexcept { return text_.size() + pending_; }  // bytes

    // Appends what is gathered to the string. Characters are gathered in runs because a string's own push_back
    // reloads its length after every character (a char store may alias anything): that reload was the longest
    // chain of a short ID's encoding.
    void flush() {
        text_.append(buffer_, pending_);
        pending_ = 0;
    }
    // The text put so far: while it is short, the bytes gathered here, so reading it waits on no copy; else the
    // string, flushed.
    std::string_view text() {
        if (text_.empty()) return {buffer_, pending_};
        flush();
        return text_;
    }
    // Flushes this output and `front`, whose text goes before this one's, into this one's string (which `front`
    // must not share): short texts are joined without moving what the string holds.
    void flush_after(TextOut& front) {
        if (front.text_.empty() && text_.empty()) {
            text_.reserve(front.pending_ + pending_);
            text_.append(front.buffer_, front.pending_);
            front.pending_ = 0;
            flush();
            return;
        }
        front.flush();
        flush();
        text_.insert(0, front.text_);
    }

private:
    std::string& text_;
    std::size_t pending_ = 0;
    char buffer_[64];
};

class MatchOut {
public:
    static constexpr bool builds_text = false;
    explicit MatchOut(std::string_view expected) noexcept : expected_(expected) {}
    // Every character moves on by its width, matched or not, so the position is also the count of bytes put.
    void put(char32_t code_point) noexcept {
        if (code_point < 0x80) [[likely]] {
            matching_ =
                matching_ && pos_ < expected_.size() && static_cast<unsigned char>(expected_[pos_]) == code_point;
            ++pos_;
            return;
        }
        std::size_t read = pos_;
        matching_ = matching_ && pos_ < expected_.size() && utf8::next(expected_, read) == code_point;
        pos_ += utf8::width(code_point);
    }
    // Compares ASCII characters without a bound check of each: the run fits in the bytes left or cannot match.
    // Inlined: a decoder's padding check is two runs.
    [[gnu::always_inline]] void put_run(std::u32string_view code_points) noexcept {
        const std::size_t left = pos_ < expected_.size() ? expected_.size() - pos_ : 0;
        std::size_t k = 0;
        if (code_points.size() <= left) {
            const auto* const expected = reinterpret_cast<const unsigned char*>(expected_.data()) + pos_;
            for (; k < code_points.size() && code_points[k] < 0x80; ++k) matching_ &= expected[k] == code_points[k];
            pos_ += k;
        }
        for (; k < code_points.size(); ++k) put(code_points[k]);
    }
    // Bytes put so far, as a TextOut would hold: an encoder's loops run the same over both.
    std::size_t size() const noexcept { return pos_; }
    bool matched() const noexcept { return matching_ && pos_ == expected_.size(); }

private:
    std::string_view expected_;
    std::size_t pos_ = 0;
    bool matching_ = true;
};

}  // namespace idcodec
