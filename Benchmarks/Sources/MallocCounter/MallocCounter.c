// Counts heap allocations by wrapping glibc's allocator: the executable defines malloc, calloc,
// realloc, the aligned allocators and free, so every allocation of the process (the Swift
// runtime's too) goes through them. Besides the calls, it keeps the number of live blocks
// (allocated and not yet freed): its growth over a loop is what the loop retains, which resident
// memory, moved by the allocator's own caching, cannot tell.
#include "MallocCounter.h"

#if defined(__linux__) && defined(__GLIBC__)
#include <errno.h>
#include <malloc.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static uint64_t counted = 0;
static int64_t live = 0;

static void *counted_block(void *block) {
  __atomic_fetch_add(&counted, 1, __ATOMIC_RELAXED);
  if (block) __atomic_fetch_add(&live, 1, __ATOMIC_RELAXED);
  return block;
}

void *malloc(size_t size) { return counted_block(__libc_malloc(size)); }

void *calloc(size_t count, size_t size) { return counted_block(__libc_calloc(count, size)); }

void *realloc(void *pointer, size_t size) {
  __atomic_fetch_add(&counted, 1, __ATOMIC_RELAXED);
  void *result = __libc_realloc(pointer, size);
  // realloc(NULL, n) allocates a block; glibc's realloc(p, 0) frees p and returns NULL.
  if (!pointer && result) __atomic_fetch_add(&live, 1, __ATOMIC_RELAXED);
  if (pointer && size == 0 && !result) __atomic_fetch_sub(&live, 1, __ATOMIC_RELAXED);
  return result;
}

// The Swift runtime allocates over-aligned objects with posix_memalign: live blocks, not counted
// as calls (the allocation rows count malloc, calloc and realloc, as before).
void *memalign(size_t alignment, size_t size) {
  void *block = __libc_memalign(alignment, size);
  if (block) __atomic_fetch_add(&live, 1, __ATOMIC_RELAXED);
  return block;
}

void *aligned_alloc(size_t alignment, size_t size) { return memalign(alignment, size); }

int posix_memalign(void **result, size_t alignment, size_t size) {
  void *block = memalign(alignment, size);
  if (!block) return ENOMEM;
  *result = block;
  return 0;
}

void free(void *pointer) {
  if (pointer) __atomic_fetch_sub(&live, 1, __ATOMIC_RELAXED);
  __libc_free(pointer);
}

uint64_t malloc_counter_count(void) { return __atomic_load_n(&counted, __ATOMIC_RELAXED); }
int64_t malloc_counter_live(void) { return __atomic_load_n(&live, __ATOMIC_RELAXED); }
void malloc_counter_trim(void) { malloc_trim(0); }
bool malloc_counter_available(void) { return true; }
#else
uint64_t malloc_counter_count(void) { return 0; }
int64_t malloc_counter_live(void) { return 0; }
void malloc_counter_trim(void) {}
bool malloc_counter_available(void) { return false; }
#endif
