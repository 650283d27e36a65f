// The continuations of an object's inspection streams and its record counter (Inspecting B.3).

import Foundation

/// The inspection streams of one object: made by the first ``StateMachineObject/inspectionRecords(bufferingPolicy:isolation:)``
/// and kept in its extras, so that an object nobody inspects has none.
///
/// Sequence numbers are given and records yielded under one lock, so that every stream sees the
/// records in sequence order even when they come from several threads (an invocation finishing
/// while a step runs). Thread-safe: a stream may be cancelled from anywhere.
///
/// `@unchecked Sendable`: every mutable field is read and written only under `lock`.
@usableFromInline
final class InspectionStreams: @unchecked Sendable {
  private let lock = NSLock()
  private var continuations: [UInt64: AsyncStream<InspectionRecord>.Continuation] = [:]
  private var nextID: UInt64 = 0
  private var lastSequence: UInt64 = 0
  /// The state and termination of the newest record, which invocation records repeat.
  private var lastState: (state: String, terminated: Bool) = ("", false)

  /// Whether a stream is listening: a step asks before it records anything.
  var isListening: Bool { lock.locked { !continuations.isEmpty } }

  /// Registers a new stream's continuation and yields its first record, made by `first` with the
  /// next sequence number, under the lock: no record can come between them.
  func add(
    _ continuation: AsyncStream<InspectionRecord>.Continuation, first: (UInt64) -> InspectionRecord
  ) {
    let id: UInt64 = lock.locked {
      nextID += 1
      continuations[nextID] = continuation
      lastSequence += 1
      let record = first(lastSequence)
      lastState = (record.state, record.terminated)
      continuation.yield(record)
      return nextID
    }
    continuation.onTermination = { [weak self] _ in
      guard let self else { return }
      _ = self.lock.locked { self.continuations.removeValue(forKey: id) }
    }
  }

  /// Gives `make` the next sequence number and yields its record to every stream; does nothing
  /// (and makes nothing) when no stream listens.
  func record(_ make: (UInt64) -> InspectionRecord) {
    lock.locked {
      guard !continuations.isEmpty else { return }
      lastSequence += 1
      let record = make(lastSequence)
      lastState = (record.state, record.terminated)
      yield(record)
    }
  }

  /// Records an invocation's change. It may come from the invocation's task, where the object
  /// cannot be read: the record repeats the state of the record before it.
  func record(_ invocation: InspectedInvocation, event: String?) {
    lock.locked {
      guard !continuations.isEmpty else { return }
      lastSequence += 1
      yield(
        InspectionRecord(
          sequence: lastSequence, kind: .invoke, event: event,
          source: .invoke(id: invocation.id, generation: invocation.generation), state: lastState.state,
          terminated: lastState.terminated, invocation: invocation))
    }
  }

  /// Yields to every stream, forgetting those that ended; under the lock.
  private func yield(_ record: InspectionRecord) {
    for (id, continuation) in continuations {
      if case .terminated = continuation.yield(record) { continuations.removeValue(forKey: id) }
    }
  }

  /// Ends every stream (the object went away). Outside the lock: ending a stream calls its
  /// termination handler, which takes the lock.
  func finish() {
    let targets = lock.locked { Array(continuations.values) }
    for continuation in targets { continuation.finish() }
  }
}

/// What one inspected run did, gathered by the steps at the points the verbose log traces and
/// turned into a `.step` record at its end. Kept in the object's extras while the run lasts, and
/// touched only by the thread that owns the run.
@usableFromInline
final class StepCapture {
  /// State indexes exited, in exit order.
  var exited: [Int32] = []
  /// State indexes entered, in entry order.
  var entered: [Int32] = []
  /// Indexes of ``InspectionDocument/transitions`` taken.
  var transitions: [Int] = []
  /// When the run began, for its duration.
  let started = ContinuousClock.now

  init() {}

  /// Whether the run changed anything worth a `.step` record.
  var isEmpty: Bool { exited.isEmpty && entered.isEmpty && transitions.isEmpty }

  /// Notes a statechart microstep: its exits in exit order, its entries in entry order and the
  /// document edges it took (declared transitions, junction paths, join edges).
  @usableFromInline
  func noteMicrostep(exits: [Int32], entries: [Int32], transitions: [Int32]) {
    exited += exits
    entered += entries
    for transition in transitions where transition >= 0 { self.transitions.append(Int(transition)) }
  }

  /// Notes a flat transition from `from` to `to` (exited and entered only if `external`) along
  /// edge `edge` of the inspection document.
  @usableFromInline
  func noteFlat(from: Int32, to: Int32, external: Bool, edge: Int) {
    if external {
      exited.append(from)
      entered.append(to)
    }
    transitions.append(edge)
  }
}
