// Memory for large, long-lived tables (a compiled blocklist can take 16 MB) taken from the kernel page by page
// rather than from the heap: when a cached configuration is evicted its tables go back to the system at once,
// instead of leaving holes in the heap that later tables of other sizes cannot reuse, so the process's memory
// follows what the cache holds.
#pragma once
#include "core/common/no_postgres.hpp"

#include <cstddef>
#include <new>
#include <sys/mman.h>
#include <vector>

namespace idcodec {

inline constexpr std::size_t page_bytes = 4096;

template <class T>
struct PageAllocator {
    using value_type = T;

    PageAllocator() = default;
    template <class U>
    PageAllocator(const PageAllocator<U>&) noexcept {}

    T* allocate(std::size_t count) {
        if (count > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
        void* memory = mmap(nullptr, count * sizeof(T), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (memory == MAP_FAILED) throw std::bad_alloc();
        return static_cast<T*>(memory);
    }

    void deallocate(T* memory, std::size_t count) noexcept { munmap(memory, count * sizeof(T)); }

    template <class U>
    bool operator==(const PageAllocator<U>&) const noexcept {
        return true;
    }
};

template <class T>
using PageVector = std::vector<T, PageAllocator<T>>;

// What a PageVector holds: its capacity in whole pages.
template <class T>
std::size_t heap_bytes(const PageVector<T>& values) noexcept {
    return (values.capacity() * sizeof(T) + page_bytes - 1) / page_bytes * page_bytes;
}

}  // namespace idcodec
