/// The ``Transition`` of one flat candidate fired without a payload, built once when the
/// definition is built. The step hands it to its callbacks borrowed, through an unowned
/// reference: it builds, retains and destroys no `Transition` (Benchmarks/README.md,
/// "Transitions built once"). A
/// callback that keeps it copies it, as it would copy one built for the step. (A class, not a
/// buffer of transitions: read through a pointer, the value was copied for every callback.)
@usableFromInline
final class StepTransition {
  @usableFromInline let transition: Transition

  init(_ transition: Transition) { self.transition = transition }
}

/// The ``StepTransition`` of each flat candidate that a full slot leads to, by candidate index;
/// `nil` for the others (a fast or light slot reaches the flat step only now and then, and a
/// definition of many transitions without code keeps no `Transition` per candidate).
@usableFromInline
struct StepTransitions {
  /// Unowned references to ``objects``, by candidate index.
  @usableFromInline let byCandidate: [Unmanaged<StepTransition>?]
  private let objects: [StepTransition]

  /// The transitions of `compiled`'s flat candidates of full slots, reading names from `names`;
  /// none for a statechart.
  init<Model>(_ compiled: CompiledMachine<Model>, names: TransitionNames) {
    var byCandidate = [Unmanaged<StepTransition>?](repeating: nil, count: compiled.candidates.count)
    var objects: [StepTransition] = []
    let rows = compiled.candidateRows
    if case .flat = compiled.engine {
      for from in 0..<max(rows.rowStarts.count - 1, 0) {
        for entry in Int(rows.rowStarts[from])..<Int(rows.rowStarts[from + 1]) {
          let event = rows.events[entry]
          let slot = TransitionSlot.position(event: Int(event), state: from, columnHeight: compiled.columnHeight)
          guard compiled.fastSlots[slot] == .full else { continue }
          for candidate in Int(rows.candidateStarts[entry])..<Int(rows.candidateStarts[entry + 1]) {
            let target = compiled.candidates[candidate].target
            let object = StepTransition(
              Transition(names, event: event, from: Int32(from), to: target >= 0 ? target : Int32(from)))
            objects.append(object)
            byCandidate[candidate] = Unmanaged.passUnretained(object)
          }
        }
      }
    }
    self.byCandidate = byCandidate
    self.objects = objects
  }
}
