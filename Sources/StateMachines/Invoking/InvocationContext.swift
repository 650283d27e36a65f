/// What an invocation's work receives (Invoke A.3): its input, its identity, the
/// definition's clock and a way to send events back to the machine.
///
/// The work never sees the model: everything it needs from it comes through ``input``, which the
/// invoke's `input` closure computed inside the step (I3).
public struct InvocationContext<Input: Sendable>: Sendable {
  /// What the invoke's `input` closure returned when the work started.
  public let input: Input
  /// The invoke's id.
  public let id: String
  /// This start's number (I5): a restart of the same invoke has a higher one.
  public let generation: UInt64
  /// The definition's clock (``StateMachineBuilder/clock``): sleep on it, so that a test's
  /// ``ManualClock`` drives the work.
  public let clock: any Clock<Duration>
  let sender: InvocationSender
  /// The machine's external events while this invocation runs, for an invoke declared with
  /// ``InvokeDeclaration/autoforward()`` (I13); finished at once for any other, and when the
  /// invocation ends or is cancelled.
  public let events: AsyncStream<ForwardedEvent>

  /// Sends `event` to the machine as an external event (after the current run's internal
  /// events, FIFO with posts, I6). Returns whether it took a transition; `false` once this
  /// invocation is stale (its state was left or its result delivered, I7), or for an unknown
  /// event.
  @discardableResult
  public func send(_ event: String, payload: (any Sendable)? = nil) async -> Bool {
    await sender.send(event, payload)
  }
}

/// Sends an invocation's events to its object (``InvocationContext/send(_:payload:)``), without
/// knowing the model's type.
struct InvocationSender: Sendable {
  let send: @Sendable (String, (any Sendable)?) async -> Bool
}

/// An invocation's start, as the type-erased work closure receives it.
struct InvocationStart: Sendable {
  let input: any Sendable
  let id: String
  let generation: UInt64
  let clock: any Clock<Duration>
  let sender: InvocationSender
  let events: AsyncStream<ForwardedEvent>
}

/// An external event the machine took while an autoforwarding invocation ran (I13).
public struct ForwardedEvent: Sendable, CustomStringConvertible {
  /// The event's name.
  public let name: String
  /// Its payload.
  public let payload: (any Sendable)?

  /// The payload as `T`, or `nil` if there is none or it has another type.
  public func payload<T>(as type: T.Type = T.self) -> T? { payload as? T }

  public var description: String { name }
}
