// Compiling the invokes (Invoke I1): each becomes a trigger of its state, so that the slots
// entering or leaving an invoking state take the full step (the cost rule: a machine without
// invokes pays nothing).

internal import StateMachinesNames

/// An invoke, resolved: its state and result events by index.
struct CompiledInvocation<Model> {
  let id: String
  let state: Int32
  /// `done.invoke.<id>` and `error.invoke.<id>`; -1 when no transition names the event (the
  /// result is then logged as unhandled).
  let doneEvent: Int32
  let errorEvent: Int32
  let input: (Model, Transition) throws -> any Sendable
  let work: @Sendable (InvocationStart) async throws -> (any Sendable)?
  let onRestore: InvocationRestorePolicy
  /// Forwards the machine's external events to the work (I13).
  let autoforward: Bool
}

extension BuilderStore {
  /// Gives each `whenInvokeDone`/`whenInvokeFailed` transition its invoke's state as source, and
  /// checks the ids: valid names (no `/ @ ,`), unique, named by the result transitions; the
  /// result event names are reserved for those transitions (I1).
  func resolveInvokeSources(storeManaged: Bool) throws(DefinitionError) {
    guard !invocations.isEmpty || declaredTransitions.contains(where: { $0.invokeID != nil }) else { return }
    if storeManaged {
      throw .invalidStructure(
        "invoke('\(invocations[0].id)'): a store-managed class (StoreManagedStateMachine) cannot invoke work yet")
    }
    var seen: [String] = []
    for invocation in invocations {
      do throws(NameError) {
        try NameGrammar.checkStateName(invocation.id)
      } catch {
        throw DefinitionError(error, context: "invoke('\(invocation.id)')")
      }
      if seen.contains(invocation.id) { throw .invalidStructure("invoke('\(invocation.id)') is declared twice") }
      seen.append(invocation.id)
    }
    for index in declaredTransitions.indices {
      let spec = declaredTransitions[index]
      guard let id = spec.invokeID else {
        if spec.event.hasPrefix(InvocationEvents.donePrefix) || spec.event.hasPrefix(InvocationEvents.errorPrefix),
          !invocations.isEmpty
        {
          throw .invalidName(
            spec.event, context: "a transition's event (reserved for whenInvokeDone and whenInvokeFailed)")
        }
        continue
      }
      guard let invocation = invocations.first(where: { $0.id == id }) else {
        throw .invalidStructure("'\(spec.event)': no invoke '\(id)' is declared")
      }
      declaredTransitions[index].from = [invocation.state]
    }
  }
}

extension CompiledMachine {
  /// Resolves the invokes and adds each to its state's triggers. `resolve` finds a state;
  /// `refusal` says why a state cannot invoke (a pseudostate or top-level final state, I1).
  static func compileInvocations(
    _ store: BuilderStore<Model>, events: [String: Int32], triggers: inout [[Trigger]],
    resolve: (StateReference) throws(DefinitionError) -> Int32, refusal: (Int32) -> String?
  ) throws(DefinitionError) -> [CompiledInvocation<Model>] {
    var compiled: [CompiledInvocation<Model>] = []
    for spec in store.invocations {
      let state = try resolve(spec.state)
      if let reason = refusal(state) {
        throw .invalidStructure("invoke('\(spec.id)') in '\(spec.state.text)': \(reason)")
      }
      let index = Int32(compiled.count)
      compiled.append(
        CompiledInvocation(
          id: spec.id, state: state, doneEvent: events[InvocationEvents.done(spec.id)] ?? -1,
          errorEvent: events[InvocationEvents.error(spec.id)] ?? -1, input: spec.input, work: spec.work,
          onRestore: spec.onRestore, autoforward: spec.autoforward))
      triggers[Int(state)].append(Trigger(event: -1, timeout: nil, notification: nil, invocation: index))
    }
    return compiled
  }
}
