public import StateMachinesSupport

/// How the events of a `Sendable` machine object are serialised: a small lock guards the object's
/// storage for a few instructions at a time, and a busy mark owns the machine for a whole
/// run-to-completion step, while its callbacks run *outside* the lock.
///
/// The lock is one of a fixed table shared by all objects (chosen by the object's address), so an
/// object stores nothing for it. It is held only for loads and stores of the storage, never across
/// user code, and never together with another lock.
///
/// A thread that fires an event of a busy machine:
/// - queues it, if that thread is itself running a step (of this machine or of another one); the
///   machine that is busy runs it before it goes idle. So no pattern of callbacks across machines
///   can deadlock: a thread that owns a machine never waits for another one.
/// - otherwise waits until the machine is idle, then runs the event itself and gets its real
///   outcome.
public struct StateMachineLock: Sendable {
  /// The address that picks the lock in the table.
  @usableFromInline let address: UInt

  /// The lock that guards the machine storage held by `object` (the machine object itself, or
  /// the box that holds its storage).
  @inlinable
  public init(guarding object: AnyObject) {
    address = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
  }

  @inlinable @inline(__always)
  func lock() { sm_lock(address) }

  @inlinable @inline(__always)
  func unlock() { sm_unlock(address) }

  @inlinable @inline(__always)
  func withLock<R>(_ body: () throws -> R) rethrows -> R {
    sm_lock(address)
    defer { sm_unlock(address) }
    return try body()
  }
}

/// The steps the current thread is running, for the rules above.
@usableFromInline
enum ThreadSteps {
  /// Records that the current thread owns the busy mark of the machine `lock` guards.
  @inlinable @inline(__always)
  static func push(_ lock: StateMachineLock) { sm_steps_push(lock.address) }

  /// Records that the current thread released the busy mark it took last.
  @inlinable @inline(__always)
  static func pop() { sm_steps_pop() }

  /// Whether the current thread is running a step of any locked machine.
  @inlinable @inline(__always)
  static var isInsideStep: Bool { sm_steps_inside() }

  /// Whether the current thread is running a step of the machine `lock` guards.
  @inlinable @inline(__always)
  static func owns(_ lock: StateMachineLock) -> Bool { sm_steps_owns(lock.address) }

  /// Waits a little before trying a busy machine again.
  @inlinable @inline(__always)
  static func pause(_ round: UInt32) { sm_pause(round) }
}
