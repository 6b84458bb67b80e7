// A small reader for the reference vector files: one JSON object per line.
#pragma once

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/common/utf8.hpp"

namespace idcodec::test {

struct Json {
    enum class Type { null, boolean, number, string, array, object };
    Type type = Type::null;
    std::string text;  // string contents, or the number / boolean as written
    std::vector<Json> items;
    std::vector<std::pair<std::string, Json>> fields;

    const Json* find(std::string_view key) const {
        for (const auto& [name, value] : fields)
            if (name == key) return &value;
        return nullptr;
    }
    const Json& operator[](std::string_view key) const {
        if (const Json* value = find(key)) return *value;
        throw std::runtime_error("missing field " + std::string(key));
    }
    bool is_null() const { return type == Type::null; }
};

class JsonParser {
public:
    explicit JsonParser(std::string_view input) : input_(input) {}

    Json parse() {
        Json value = parse_value();
        skip_space();
        if (pos_ != input_.size()) fail("trailing characters");
        return value;
    }

private:
    [[noreturn]] void fail(const char* what) const {
        throw std::runtime_error(std::string("JSON: ") + what + " at " + std::to_string(pos_));
    }
    void skip_space() {
        while (pos_ < input_.size() &&
               (input_[pos_] == ' ' || input_[pos_] == '\t' || input_[pos_] == '\r' || input_[pos_] == '\n'))
            ++pos_;
    }
    char peek() {
        skip_space();
        if (pos_ >= input_.size()) fail("unexpected end");
        return input_[pos_];
    }
    void expect(char c) {
        if (peek() != c) fail("unexpected character");
        ++pos_;
    }
    bool consume_word(std::string_view word) {
        if (input_.substr(pos_, word.size()) != word) return false;
        pos_ += word.size();
        return true;
    }
    unsigned hex4() {
        if (pos_ + 4 > input_.size()) fail("short escape");
        const unsigned value = std::stoul(std::string(input_.substr(pos_, 4)), nullptr, 16);
        pos_ += 4;
        return value;
    }
    std::string parse_string() {
        expect('"');
        std::string out;
        while (true) {
            if (pos_ >= input_.size()) fail("unterminated string");
            const char c = input_[pos_++];
            if (c == '"') return out;
            if (c != '\\') {
                out.push_back(c);
                continue;
            }
            const char e = input_[pos_++];
            switch (e) {
                case 'n':
                    out.push_back('\n');
                    break;
                case 't':
                    out.push_back('\t');
                    break;
                case 'r':
                    out.push_back('\r');
                    break;
                case 'b':
                    out.push_back('\b');
                    break;
                case 'f':
                    out.push_back('\f');
                    break;
                case 'u': {
                    char32_t cp = hex4();
                    if (cp >= 0xD800 && cp < 0xDC00 && consume_word("\\u"))
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (hex4() - 0xDC00);
                    utf8::append(out, cp);
                    break;
                }
                default:
                    out.push_back(e);
            }
        }
    }
    Json parse_value() {
        Json value;
        const char c = peek();
        if (c == '"') {
            value.type = Json::Type::string;
            value.text = parse_string();
        } else if (c == '[') {
            value.type = Json::Type::array;
            ++pos_;
            if (peek() == ']') {
                ++pos_;
                return value;
            }
            do value.items.push_back(parse_value());
            while (peek() == ',' && ++pos_);
            expect(']');
        } else if (c == '{') {
            value.type = Json::Type::object;
            ++pos_;
            if (peek() == '}') {
                ++pos_;
                return value;
            }
            do {
                std::string key = parse_string();
                expect(':');
                value.fields.emplace_back(std::move(key), parse_value());
            } while (peek() == ',' && ++pos_);
            expect('}');
        } else if (consume_word("null")) {
            value.type = Json::Type::null;
        } else if (consume_word("true") || consume_word("false")) {
            value.type = Json::Type::boolean;
            value.text = input_[pos_ - 1] == 'e' && input_[pos_ - 2] == 'u' ? "true" : "false";
        } else {
            value.type = Json::Type::number;
            const std::size_t start = pos_;
            while (pos_ < input_.size() &&
                   std::string_view("+-0123456789.eE").find(input_[pos_]) != std::string_view::npos)
                ++pos_;
            if (start == pos_) fail("unexpected character");
            value.text = std::string(input_.substr(start, pos_ - start));
        }
        return value;
    }

    std::string_view input_;
    std::size_t pos_ = 0;
};

inline std::vector<Json> read_jsonl(const std::string& path) {
    std::ifstream file(path);
    if (!file) throw std::runtime_error("cannot open " + path);
    std::vector<Json> records;
    for (std::string line; std::getline(file, line);)
        if (!line.empty()) records.push_back(JsonParser(line).parse());
    return records;
}

// A file holding one JSON value.
inline Json read_json(const std::string& path) {
    std::ifstream file(path);
    if (!file) throw std::runtime_error("cannot open " + path);
    const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    return JsonParser(text).parse();
}

// Where the reference vectors live: $IDCODEC_VECTORS, else test/vectors (the tests run from the repository root).
inline std::string vectors_dir() {
    if (const char* dir = std::getenv("IDCODEC_VECTORS")) return dir;
    return "test/vectors";
}

}  // namespace idcodec::test
