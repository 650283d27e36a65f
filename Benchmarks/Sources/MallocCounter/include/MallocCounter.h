#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H
#include <stdbool.h>
#include <stdint.h>

/// The number of malloc, calloc and realloc calls so far (Linux; elsewhere always 0).
uint64_t malloc_counter_count(void);
/// The number of heap blocks allocated and not yet freed (Linux; elsewhere always 0): its
/// change over a loop is what the loop retained.
int64_t malloc_counter_live(void);
/// Returns freed memory to the system where the allocator can (glibc's malloc_trim).
void malloc_counter_trim(void);
/// Whether calls are counted on this platform.
bool malloc_counter_available(void);
#endif
