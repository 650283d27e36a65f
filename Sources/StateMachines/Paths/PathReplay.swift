// Replaying a generated path against the real thing: fresh objects, the user's hooks, and the
// configuration checked after every step.

/// Why a replay failed: where, what the path expects, and what the object did.
public struct PathReplayError: Error, CustomStringConvertible {
  /// The path up to and including the step that failed.
  public let pathSoFar: String
  /// The index of the failed step in the path (0: the start).
  public let step: Int
  public let expectedConfiguration: [String]
  public let actualConfiguration: [String]
  /// Whether the path expects the machine to take the step, and whether it did (`nil`: not
  /// observable, as for a timeout or an invoke's result).
  public let expectedAccepted: Bool
  public let actualAccepted: Bool?
  /// What went wrong besides the configuration (the start threw, no `ManualClock`), if anything.
  public let reason: String?

  public var description: String {
    let taken = { (accepted: Bool) in accepted ? "taken" : "refused" }
    var text = "path \(pathSoFar)\nstep \(step): expected [\(expectedConfiguration.joined(separator: ", "))]"
      + " (\(taken(expectedAccepted))), got [\(actualConfiguration.joined(separator: ", "))]"
    if let actualAccepted { text += " (\(taken(actualAccepted)))" }
    if let reason { text += ": \(reason)" }
    return text
  }
}

extension StateMachinePath {
  /// Replays the path on a fresh object from `make`, and checks after every step that the
  /// object is in the configuration the path says and took (or refused) the step as it says.
  ///
  /// - Parameters:
  ///   - make: a fresh object, not started.
  ///   - payload: the payload of an event step, if it needs one.
  ///   - coverage: records each step that checked out.
  ///   - before: runs before each step (the start too): set the object up so that the step's
  ///     ``StateMachinePathStep/guards`` hold or fail as they must, or make an invoke's work
  ///     finish as the step says.
  ///   - after: runs after each step that checked out: assert what the app should do.
  ///   - isolation: where the replay runs: the caller's actor, so that an actor-isolated class
  ///     (`@MainActor`) is made, fired and checked there.
  /// - Returns: the object, in the path's last configuration.
  /// - Throws: ``PathReplayError`` at the first step that does not check out, or what a hook
  ///   throws.
  ///
  /// A timeout or delayed-send step moves the definition's clock, which must be a
  /// ``ManualClock``, by the step's delay; an invoke step waits for the object's invocations
  /// (``StateMachineObject/waitForInvocations(isolation:)``).
  @discardableResult
  public func replay<Model: StateMachineObject>(
    on make: () throws -> Model,
    payload: (StateMachinePathStep) -> (any Sendable)? = { _ in nil },
    coverage: StateMachineCoverage? = nil,
    before: (Model, StateMachinePathStep) throws -> Void = { _, _ in },
    after: (Model, StateMachinePathStep) throws -> Void = { _, _ in },
    isolation: isolated (any Actor)? = #isolation
  ) async throws -> Model {
    let object = try make()
    for (index, step) in steps.enumerated() {
      try before(object, step)
      var accepted: Bool? = nil
      var reason: String? = nil
      switch step.kind {
      case .start:
        do {
          try object.startStateMachine()
          accepted = true
        } catch {
          // A start the path expects to be refused (the definition's limits) checks out.
          accepted = false
          if step.accepted { reason = "start threw \(error)" }
        }
      case .event(let name):
        accepted = object.fire(name, payload: payload(step))
      case .timeout(_, let delay), .delayedSend(_, let delay):
        if let clock = object.stateMachineDefinition.compiled.clock as? ManualClock {
          await clock.advance(by: delay)
        } else {
          reason = "a timed step needs the definition's clock to be a ManualClock"
        }
      case .invokeDone, .invokeFailed:
        await object.waitForInvocations()
      }
      let actual = object.activeLeaves.sorted()
      guard reason == nil, actual == step.configuration, accepted == nil || accepted == step.accepted else {
        throw PathReplayError(
          pathSoFar: StateMachinePath(steps: Array(steps[...index])).description, step: index,
          expectedConfiguration: step.configuration, actualConfiguration: actual, expectedAccepted: step.accepted,
          actualAccepted: accepted, reason: reason)
      }
      coverage?.record(step)
      try after(object, step)
    }
    return object
  }
}
