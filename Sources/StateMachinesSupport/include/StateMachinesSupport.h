// The two primitives the Swift runtime cannot express without the Synchronization module (not
// available before macOS 15): a table of small locks, and a per-thread record of the machine
// steps the thread is running. Internal to StateMachines; not API.
#ifndef STATEMACHINES_SUPPORT_H
#define STATEMACHINES_SUPPORT_H

#include <stdbool.h>
#include <stdint.h>

#if defined(__APPLE__)
#include <os/lock.h>
#endif

/// The number of locks shared by all `Sendable` machine objects (a power of two). An object uses
/// the lock its address maps to. A lock is held only for a few loads and stores of the object's
/// storage, never across user code and never together with another, so two objects that share a
/// lock cannot deadlock; they only rarely wait for each other's few instructions.
#define SM_LOCK_COUNT 64

typedef struct {
#if defined(__APPLE__)
  os_unfair_lock lock;
#else
  uint32_t word;
#endif
  char padding[60];
} sm_lock_slot;

extern sm_lock_slot sm_locks[SM_LOCK_COUNT];

/// Waits until the lock word is free and takes it (out of line: the contended case).
void sm_lock_wait(uint32_t *_Nonnull word);

static inline sm_lock_slot *_Nonnull sm_lock_for(uintptr_t object) {
  return &sm_locks[(object >> 4) & (SM_LOCK_COUNT - 1)];
}

/// Takes the lock of `object` (its address).
static inline void sm_lock(uintptr_t object) {
#if defined(__APPLE__)
  os_unfair_lock_lock(&sm_lock_for(object)->lock);
#else
  uint32_t *word = &sm_lock_for(object)->word;
  uint32_t expected = 0;
  if (__builtin_expect(
          __atomic_compare_exchange_n(word, &expected, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED), 1))
    return;
  sm_lock_wait(word);
#endif
}

/// Releases the lock of `object`.
static inline void sm_unlock(uintptr_t object) {
#if defined(__APPLE__)
  os_unfair_lock_unlock(&sm_lock_for(object)->lock);
#else
  __atomic_store_n(&sm_lock_for(object)->word, 0, __ATOMIC_RELEASE);
#endif
}

/// Gives up the processor for a moment: a thread that waits for a busy machine.
void sm_pause(uint32_t round);

/// How many machine steps the current thread is running, and their machines: the first
/// SM_STEPS_RECORDED in place, any deeper ones in `overflow`, which a thread allocates when it
/// nests deeper (a callback of one machine firing another, and so on) and frees when it comes
/// back. So `sm_steps_owns` is exact at any depth: a thread 17 machines deep still queues an
/// event of its own innermost machine as its own (Semantics §Run to completion).
#define SM_STEPS_RECORDED 16
typedef struct {
  uintptr_t machines[SM_STEPS_RECORDED];
  uint32_t depth;
  /// The room in `overflow`, in machines.
  uint32_t capacity;
  /// The machines past the first SM_STEPS_RECORDED (`depth - SM_STEPS_RECORDED` of them), or
  /// NULL while the thread is no deeper than SM_STEPS_RECORDED.
  uintptr_t *_Nullable overflow;
} sm_thread_steps;

/// The current thread's steps (defined in StateMachinesSupport.c). Reached inline: a call per
/// access cost a tenth of a `Sendable` object's light transition, which pushes and pops a step.
extern _Thread_local sm_thread_steps sm_thread_current_steps;

static inline sm_thread_steps *_Nonnull sm_current_steps(void) { return &sm_thread_current_steps; }

/// Records `object` at `steps->depth` (at least SM_STEPS_RECORDED) in `overflow`, growing it
/// (out of line: only a thread that deep comes here). Aborts when memory runs out, as a Swift
/// allocation does.
void sm_steps_push_overflow(sm_thread_steps *_Nonnull steps, uintptr_t object);

/// Frees `overflow`: the thread is back at SM_STEPS_RECORDED steps.
void sm_steps_release_overflow(sm_thread_steps *_Nonnull steps);

/// Whether `object` is one of the machines in `overflow`.
bool sm_steps_owns_overflow(const sm_thread_steps *_Nonnull steps, uintptr_t object);

/// Records that the current thread runs a step of `object` (it owns the machine's busy mark).
static inline void sm_steps_push(uintptr_t object) {
  sm_thread_steps *steps = sm_current_steps();
  if (__builtin_expect(steps->depth < SM_STEPS_RECORDED, 1)) {
    steps->machines[steps->depth] = object;
  } else {
    sm_steps_push_overflow(steps, object);
  }
  steps->depth += 1;
}

/// Records that the current thread finished its innermost step.
static inline void sm_steps_pop(void) {
  sm_thread_steps *steps = sm_current_steps();
  steps->depth -= 1;
  // Back from SM_STEPS_RECORDED + 1: the last machine in `overflow` is gone.
  if (__builtin_expect(steps->depth == SM_STEPS_RECORDED, 0)) sm_steps_release_overflow(steps);
}

/// Whether the current thread is running a step of any machine.
static inline bool sm_steps_inside(void) { return sm_current_steps()->depth != 0; }

/// Whether the current thread is running a step of `object`, at any depth.
static inline bool sm_steps_owns(uintptr_t object) {
  sm_thread_steps *steps = sm_current_steps();
  uint32_t count = steps->depth < SM_STEPS_RECORDED ? steps->depth : SM_STEPS_RECORDED;
  for (uint32_t index = 0; index < count; index++) {
    if (steps->machines[index] == object) return true;
  }
  return __builtin_expect(steps->depth > SM_STEPS_RECORDED, 0) && sm_steps_owns_overflow(steps, object);
}

#endif
