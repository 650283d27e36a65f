// Counts heap allocations by wrapping glibc's allocator: the executable defines malloc, calloc
// and realloc, so every allocation of the process (the Swift runtime's too) goes through them.
#include "MallocCounter.h"

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);

static uint64_t counted = 0;

void *malloc(size_t size) {
  __atomic_fetch_add(&counted, 1, __ATOMIC_RELAXED);
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  __atomic_fetch_add(&counted, 1, __ATOMIC_RELAXED);
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  __atomic_fetch_add(&counted, 1, __ATOMIC_RELAXED);
  return __libc_realloc(pointer, size);
}

uint64_t malloc_counter_count(void) { return __atomic_load_n(&counted, __ATOMIC_RELAXED); }
void malloc_counter_trim(void) { malloc_trim(0); }
bool malloc_counter_available(void) { return true; }
#else
uint64_t malloc_counter_count(void) { return 0; }
void malloc_counter_trim(void) {}
bool malloc_counter_available(void) { return false; }
#endif
