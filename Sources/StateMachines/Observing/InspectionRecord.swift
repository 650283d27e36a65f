// One element of an object's inspection stream (Inspecting B.3/B.4).

import Foundation

/// What an inspected object reports: a snapshot first, then one record per event taken up, step
/// that changed something, rejection and invocation change.
///
/// Fields that do not apply to a record's ``kind`` are empty or `nil`. Payloads are passed as
/// fired and never encoded by the machine: a consumer that shows them encodes them itself.
public struct InspectionRecord: Sendable {
  /// The kind of a record.
  public enum Kind: String, Sendable {
    /// The object's situation when the stream began: configuration, state, termination and
    /// running invocations.
    case snapshot
    /// An event taken up for processing, with its source and payload.
    case event
    /// A macrostep that changed something: the states exited and entered, the transitions taken
    /// and the configuration afterwards.
    case step
    /// An event that did nothing, with the reason.
    case rejected
    /// An invocation started, was cancelled, finished, failed, or had a result dropped.
    case invoke
  }

  /// Per object: 1, 2, 3 … in the order records are made; never repeated, never skipped by the
  /// object (a stream's buffering policy may drop records before a slow consumer reads them).
  public let sequence: UInt64
  /// When the record was made (wall clock).
  public let date: Date
  /// What the record reports.
  public let kind: Kind
  /// The event's name: for `.event`, `.step`, `.rejected`, and `.invoke` records of a result.
  public let event: String?
  /// Where the event came from (`.event`, `.step`, `.rejected`).
  public let source: InspectionSource?
  /// The event's payload as fired (`.event`, `.step`, `.rejected`).
  public let payload: (any Sendable)?
  /// `.step`: the canonical paths of the states exited, in exit order.
  public let exited: [String]
  /// `.step`: the canonical paths of the states entered, in entry order.
  public let entered: [String]
  /// `.step`: the indexes of the transitions taken, as in ``InspectionDocument/transitions`` and
  /// the `t<index>` ids of ``StateMachineDefinition/dotDiagram(identifiers:)``.
  public let transitions: [Int]
  /// `.snapshot` and `.step`: every active state's canonical path afterwards, ancestors
  /// included, in document order (a flat machine: its state).
  public let configuration: [String]
  /// The object's ``StateMachineObject/state`` after the record's event.
  public let state: String
  /// Whether the machine has terminated.
  public let terminated: Bool
  /// `.rejected`: why the event did nothing; `.step`: the error a callback threw, if any.
  public let reason: String?
  /// `.step`: how long the macrostep took.
  public let duration: Duration?
  /// `.invoke`: the invocation and what happened to it.
  public let invocation: InspectedInvocation?
  /// `.snapshot`: the ids of the invocations running now, in the order they started.
  public let runningInvocations: [String]

  /// Creates a record; the machine makes them, and a consumer may make its own (tests, replays).
  public init(
    sequence: UInt64, date: Date = Date(), kind: Kind, event: String? = nil, source: InspectionSource? = nil,
    payload: (any Sendable)? = nil, exited: [String] = [], entered: [String] = [], transitions: [Int] = [],
    configuration: [String] = [], state: String, terminated: Bool = false, reason: String? = nil,
    duration: Duration? = nil, invocation: InspectedInvocation? = nil, runningInvocations: [String] = []
  ) {
    self.sequence = sequence
    self.date = date
    self.kind = kind
    self.event = event
    self.source = source
    self.payload = payload
    self.exited = exited
    self.entered = entered
    self.transitions = transitions
    self.configuration = configuration
    self.state = state
    self.terminated = terminated
    self.reason = reason
    self.duration = duration
    self.invocation = invocation
    self.runningInvocations = runningInvocations
  }
}
