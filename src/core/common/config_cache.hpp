// Prepared configurations (a hashids alphabet set, ...) cached per backend in a bounded LRU keyed by every
// setting they depend on. The shim owns the one instance and wires its capacity to a GUC.
#pragma once
#include "core/common/no_postgres.hpp"

#include <cstdint>
#include <cstring>
#include <list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <typeinfo>
#include <unordered_map>
#include <utility>

#include "core/common/footprint.hpp"
#include "core/common/secret.hpp"

namespace idcodec {

// The settings a configuration was built from, as one string: each part with its length. A key (FF1's) may be
// among them, so the bytes are erased when the object is destroyed or assigned, and are written once, into memory
// of their final size (a growing string would leave copies behind in the memory it frees).
class SettingsKey {
public:
    static SettingsKey of(std::span<const std::string_view> parts) {
        std::size_t size = 0;
        for (const std::string_view part : parts) size += sizeof(std::uint64_t) + part.size();
        SettingsKey key;
        key.bytes_.reserve(size);
        for (const std::string_view part : parts) key.append(part);
        return key;
    }

    SettingsKey() = default;
    ~SettingsKey() { erase(); }
    // The moved-from string keeps no heap memory; bytes it held in place are erased by its destructor.
    SettingsKey(SettingsKey&& other) noexcept = default;
    SettingsKey& operator=(SettingsKey&& other) noexcept {
        erase();
        bytes_ = std::move(other.bytes_);
        return *this;
    }
    SettingsKey(const SettingsKey&) = delete;
    SettingsKey& operator=(const SettingsKey&) = delete;

    // True when built from the same parts; allocates nothing.
    bool matches(std::span<const std::string_view> parts) const noexcept {
        std::size_t pos = 0;
        for (const std::string_view part : parts)
            if (!consume(pos, part)) return false;
        return pos == bytes_.size();
    }

    const std::string& bytes() const noexcept { return bytes_; }

private:
    void erase() noexcept { wipe(bytes_.data(), bytes_.capacity()); }

    void append(std::string_view part) {
        const auto length = static_cast<std::uint64_t>(part.size());
        bytes_.append(reinterpret_cast<const char*>(&length), sizeof length);
        bytes_.append(part);
    }

    bool consume(std::size_t& pos, std::string_view part) const noexcept {
        std::uint64_t length;
        if (bytes_.size() - pos < sizeof length) return false;
        std::memcpy(&length, bytes_.data() + pos, sizeof length);
        pos += sizeof length;
        if (length != part.size() || bytes_.size() - pos < length) return false;
        if (bytes_.compare(pos, part.size(), part) != 0) return false;
        pos += part.size();
        return true;
    }

    std::string bytes_;
};

// Bounded both by count (the GUC) and by the memory the configurations hold (Config::footprint()).
class ConfigCache {
public:
    ConfigCache(std::size_t capacity, std::size_t byte_budget) : capacity_(capacity), byte_budget_(byte_budget) {}

    // The cached configuration of type Config for `key`, or a new one from `make()` (which may throw), remembered.
    template <class Config, class Make>
    std::shared_ptr<const Config> get(const SettingsKey& key, Make&& make) {
        const std::string_view parts[] = {typeid(Config).name(), key.bytes()};
        SettingsKey typed_key = SettingsKey::of(parts);
        if (const auto found = index_.find(typed_key.bytes()); found != index_.end()) {
            entries_.splice(entries_.begin(), entries_, found->second);
            return std::static_pointer_cast<const Config>(found->second->config);
        }
        auto config = std::make_shared<const Config>(make());
        const std::size_t bytes = config->footprint() + heap_bytes(typed_key.bytes()) + entry_overhead;
        entries_.push_front({std::move(typed_key), config, bytes});
        index_.emplace(entries_.front().key.bytes(), entries_.begin());
        bytes_ += bytes;
        trim();
        return config;
    }

    void set_capacity(std::size_t capacity) {
        capacity_ = capacity;
        trim();
    }

    std::size_t size() const noexcept { return entries_.size(); }
    std::size_t bytes() const noexcept { return bytes_; }

private:
    struct Entry {
        SettingsKey key;
        std::shared_ptr<const void> config;
        std::size_t bytes;
    };

    // What an entry costs besides its configuration and key: the list node, the index node and its bucket, and
    // the shared pointer's control block.
    static constexpr std::size_t entry_overhead = heap_bytes(sizeof(Entry) + 2 * sizeof(void*)) +
                                                  heap_bytes(4 * sizeof(void*)) + 2 * sizeof(void*) +
                                                  heap_bytes(2 * sizeof(long));

    void trim() {
        while (!entries_.empty() && (entries_.size() > capacity_ || bytes_ > byte_budget_)) {
            bytes_ -= entries_.back().bytes;
            index_.erase(entries_.back().key.bytes());
            entries_.pop_back();
        }
    }

    std::size_t capacity_;
    std::size_t byte_budget_;
    std::size_t bytes_ = 0;
    std::list<Entry> entries_;  // most recently used first
    std::unordered_map<std::string_view, std::list<Entry>::iterator> index_;
};

}  // namespace idcodec
