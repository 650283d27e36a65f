/// Which step a definition runs, chosen once when it is compiled (``CompiledMachine/engine``):
/// the flat step over the tables of ``CompiledMachine``, or the statechart step over a
/// ``Statechart``. Every operation that differs between the two switches on it once, so the
/// compiler lists each place a new engine would have to handle.
///
/// The flat case carries nothing: its tables (the candidate rows, the light transitions) stay in
/// ``CompiledMachine``, where the inlined tiers read them without unwrapping an enum. With one
/// class payload, the enum is one pointer, as the optional it replaces was.
@usableFromInline
enum MachineEngine<Model> {
  /// One state at a time (the Semantics article): the state index is the whole configuration.
  case flat
  /// Nested and parallel states, pseudostates and eventless transitions (the Hierarchy article).
  case statechart(Statechart<Model>)

  /// Whether `state` is a leaf: every state of a flat machine is.
  @inlinable
  func isAtomic(_ state: Int32) -> Bool {
    switch self {
    case .flat: return true
    case .statechart(let chart): return chart.isAtomic(state)
    }
  }

  /// Whether a final `state` terminates the machine: in a statechart only a top-level one does
  /// (S16); in a flat machine, every final state.
  func finalStateTerminates(_ state: Int32) -> Bool {
    switch self {
    case .flat: return true
    case .statechart(let chart): return chart.tree.parents[Int(state)] == -1
    }
  }

  /// What a timeout or notification armed in `state` belongs to: a statechart's to that state,
  /// which disarms it when exited (S18, its entry serial tells a stale one); a flat machine's to
  /// the machine (-1), which disarms all of them on every external transition (the epoch).
  func triggerOwner(_ state: Int32) -> Int32 {
    switch self {
    case .flat: return -1
    case .statechart: return state
    }
  }

  /// The state a bare name (unique in the machine, N5) or a non-canonical path names; -1 if none.
  /// A flat machine's names are all exact, looked up before this is asked.
  func resolve(_ name: String) -> Int32 {
    switch self {
    case .flat: return -1
    case .statechart(let chart): return (try? chart.tree.resolve(name, from: -1, context: "")) ?? -1
    }
  }
}
