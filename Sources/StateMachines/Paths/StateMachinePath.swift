// A path through a machine: what a generated test replays, step by step.

/// One step of a ``StateMachinePath``: what happens, and the configuration the machine must be in
/// once the step's macrostep has ended.
public struct StateMachinePathStep: Sendable, Hashable, CustomStringConvertible {
  /// What the step does to the machine.
  public enum Kind: Sendable, Hashable {
    /// Starting the machine (the first step of every path).
    case start
    /// Firing an event.
    case event(String)
    /// A timeout falling due: its event, `after` its state was entered.
    case timeout(event: String, after: Duration)
    /// An invoke's work finishing: its `done.invoke.<id>` event.
    case invokeDone(String)
    /// An invoke's work failing: its `error.invoke.<id>` event.
    case invokeFailed(String)
    /// Delayed sends falling due (``DeclaredAction/send(_:delay:id:)``, SCXML `<send delay>`):
    /// the clock moves on `after` this long, and each event sent for that moment is delivered,
    /// in the order sent. The explorer's clock moves only in timed steps.
    case delayedSend(events: [String], after: Duration)

    /// Whether it is a ``delayedSend(events:after:)``.
    public var isDelayedSend: Bool {
      if case .delayedSend = self { return true }
      return false
    }
  }

  /// A guard the step needs to hold or to fail, in the order the runtime asks.
  public struct GuardOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The transition (`from –event→ to`, as declared) or junction path it guards.
    public let transition: String
    /// Whether it must hold.
    public let holds: Bool
    /// Whether the definition evaluates it itself (an SCXML `In()` condition, or a guard bound
    /// when the paths were made by ``StateMachinePaths/init(evaluatingGuardsOf:limits:)``), so a
    /// test need not arrange it.
    public let isEvaluated: Bool

    public var description: String { "[\(holds ? "" : "not ")\(transition)]" }
  }

  public let kind: Kind
  /// The active atomic states after the step, as the definition names them, sorted.
  public let configuration: [String]
  /// Whether the machine takes the step: `false` when every guard it asks fails.
  public let accepted: Bool
  /// The guards the step asks, with the outcome it needs.
  public let guards: [GuardOutcome]
  /// The transitions the step takes (`from –event→ to`, as declared), in order.
  public let transitions: [String]

  /// The step's label in a path's name: the event, `after 5s: expire`, `done: upload`.
  public var label: String {
    switch kind {
    case .start: return "start"
    case .event(let name): return name
    case .timeout(let event, let delay): return "after \(delay): \(event)"
    case .invokeDone(let id): return "done: \(id)"
    case .invokeFailed(let id): return "error: \(id)"
    case .delayedSend(let events, let delay): return "after \(delay): sent \(events.joined(separator: ", "))"
    }
  }

  /// `–label→ configuration`, with the guards that must fail and `(refused)` for a step the
  /// machine does not take.
  public var description: String {
    let failing = guards.filter { !$0.holds }.map(\.description).joined()
    let refused = accepted ? "" : " (refused)"
    return "–\(label)\(failing.isEmpty ? "" : " " + failing)\(refused)→ \(configuration.joined(separator: ", "))"
  }
}

/// A path through a machine: its start, then steps, each with the configuration it must reach.
///
/// Its description reads `awaitingPayment –pay→ paid –ship→ shipped`, so a path makes a readable
/// argument of a parameterized test: `@Test(arguments: paths.paths)`.
public struct StateMachinePath: Sendable, Hashable, CustomStringConvertible {
  /// The start, then the steps.
  public let steps: [StateMachinePathStep]

  public init(steps: [StateMachinePathStep]) {
    self.steps = steps
  }

  /// The configuration the path ends in.
  public var configuration: [String] { steps.last?.configuration ?? [] }

  public var description: String {
    guard let start = steps.first else { return "(empty)" }
    let first = start.configuration.joined(separator: ", ")
    let opening = start.guards.filter { !$0.holds }.map(\.description).joined()
    return ([opening.isEmpty ? first : "\(opening) \(first)"] + steps.dropFirst().map(\.description))
      .joined(separator: " ")
  }
}

/// Paths a generator made, and what it could not do.
public struct StateMachinePathSet: Sendable, CustomStringConvertible {
  /// The paths, each starting at the machine's start.
  public let paths: [StateMachinePath]
  /// Why the exploration or the generator stopped before it was complete (a limit of
  /// ``StateMachinePaths/Limits``), or `nil`.
  public let stoppedEarly: String?
  /// For a cover: the targets (transitions and guard outcomes) no path could reach.
  public let unreached: [String]
  /// For a cover: a lower bound on the steps any cover needs (every target must be taken by some
  /// step, and no step takes more than the most targets one edge has), to compare with
  /// ``stepCount``.
  public let lowerBound: Int?

  /// The steps of all paths, starts not counted.
  public var stepCount: Int { paths.reduce(0) { $0 + $1.steps.count - 1 } }

  public var description: String { paths.map(\.description).joined(separator: "\n") }
}
