import Foundation
import MallocCounter
import StateMachines

// Cancelled timeouts (Semantics "a cancelled timeout holds no memory"): 100k objects enter a state
// with a 1-hour timeout and leave it. The process's resident memory must come back to its baseline
// within a second.

/// Locks itself an hour after it was closed.
@StateMachine
final class HourLockDoor: @unchecked Sendable {
  static let stateMachine = StateMachineDefinition<HourLockDoor> { sm in
    sm.addState("opened")
    sm.addState("closed")
    sm.addState("locked")
    sm.when("close", transitionFrom: "opened", to: "closed")
    sm.when("open", transitionFrom: "closed", to: "opened")
    sm.when("lock", transitionFrom: "closed", to: "locked", after: .seconds(3600))
  }
}

/// The resident set size in bytes (Linux; `nil` elsewhere).
func residentBytes() -> Int? {
  guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
  let fields = statm.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Resident memory: before, while 100k doors each have a timeout armed, and one second after they
/// all left the state (and went away).
func timeoutMemory(objects: Int) async -> (baseline: Int, armed: Int, after: Int)? {
  // Warm up the scheduler and the allocator once.
  do {
    let warm = (0..<1_000).map { _ in HourLockDoor() }
    for door in warm { door.close() }
    for door in warm { door.open() }
  }
  guard let baseline = residentBytes() else { return nil }
  var armed = 0
  do {
    let doors = (0..<objects).map { _ in HourLockDoor() }
    for door in doors { door.close() }
    armed = residentBytes() ?? 0
    for door in doors { door.open() }
  }
  try? await Task.sleep(for: .seconds(1))
  // Hand freed pages back, so the resident size shows what is still allocated.
  malloc_counter_trim()
  return (baseline, armed, residentBytes() ?? 0)
}
