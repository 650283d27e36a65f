#include "StateMachinesSupport.h"

#include <sched.h>
#include <stdlib.h>
#include <time.h>

sm_lock_slot sm_locks[SM_LOCK_COUNT];

_Thread_local sm_thread_steps sm_thread_current_steps;

void sm_steps_push_overflow(sm_thread_steps *steps, uintptr_t object) {
  uint32_t index = steps->depth - SM_STEPS_RECORDED;
  if (index >= steps->capacity) {
    uint32_t capacity = steps->capacity == 0 ? SM_STEPS_RECORDED : steps->capacity * 2;
    uintptr_t *grown = realloc(steps->overflow, (size_t)capacity * sizeof(uintptr_t));
    if (grown == NULL) abort();
    steps->overflow = grown;
    steps->capacity = capacity;
  }
  steps->overflow[index] = object;
}

void sm_steps_release_overflow(sm_thread_steps *steps) {
  free(steps->overflow);
  steps->overflow = NULL;
  steps->capacity = 0;
}

bool sm_steps_owns_overflow(const sm_thread_steps *steps, uintptr_t object) {
  uint32_t count = steps->depth - SM_STEPS_RECORDED;
  for (uint32_t index = 0; index < count; index++) {
    if (steps->overflow[index] == object) return true;
  }
  return false;
}

void sm_lock_wait(uint32_t *word) {
#if !defined(__APPLE__)
  for (uint32_t round = 0;; round++) {
    uint32_t expected = 0;
    if (__atomic_load_n(word, __ATOMIC_RELAXED) == 0 &&
        __atomic_compare_exchange_n(word, &expected, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
      return;
    sm_pause(round);
  }
#else
  (void)word;
#endif
}

void sm_pause(uint32_t round) {
  if (round < 64) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
  } else if (round < 128) {
    sched_yield();
  } else {
    struct timespec pause = {0, 50000};
    nanosleep(&pause, NULL);
  }
}
