import Foundation

extension StateMachineDefinition {
  /// Builds a definition from JSON (Hierarchy §7), in either of two formats, told apart by
  /// their shape:
  ///
  /// - the library's own, `statemachines/1`: `states` is an object whose keys are state names in
  ///   document order (XState's authoring shape, without functions);
  /// - TBStateMachine's: `states` and `transitions` are arrays.
  ///
  /// Guards, actions and invoked work (a state's `invoke`, Invoke A.5) are named in the
  /// document and bound in `bind`; `build` may then add
  /// states, transitions and callbacks in code, addressing the document's states by path.
  ///
  /// ```swift
  /// let definition = try StateMachineDefinition<Player>(json: data) { bind in
  ///   bind.guard("hasTrack") { player, _ in player.track != nil }
  ///   bind.action("advance") { player, _ in player.advance() }
  /// }
  /// ```
  ///
  /// - Throws: ``DefinitionError/invalidJSON(_:line:column:pointer:)`` for malformed JSON, a
  ///   document past `limits`, or a broken rule of the format;
  ///   ``DefinitionError/unboundName(_:at:line:column:)`` for a guard, action or invocation
  ///   `bind` does not supply; any other ``DefinitionError`` the definition's checks find, wrapped in
  ///   ``DefinitionError/located(_:at:)`` with where its culprits are written (a culprit that
  ///   `build` added has no location). A binding the document never uses is reported in
  ///   ``definitionWarnings``.
  // Pre-specialised for the dynamic machine, which most loaded definitions drive: the loader and
  // the compiler then run without generic metadata lookups and value witnesses.
  @_specialize(exported: true, where Model == DynamicStateMachine)
  public convenience init(
    json data: Data, limits: JSONLimits = JSONLimits(), clock: any Clock<Duration> = ContinuousClock(),
    bind: (inout Bindings<Model>) -> Void = { _ in }, _ build: (StateMachineBuilder<Model>) -> Void = { _ in }
  ) throws(DefinitionError) {
    var bindings = Bindings<Model>()
    bind(&bindings)
    let document = try JSONDocument(Array(data), limits: limits)
    // The document loads into a store of its own, which is compiled only if it loaded whole: a
    // fragment left by an error could break what compiling relies on.
    let store = BuilderStore<Model>()
    var warnings: [String] = []
    let sites: JSONSourceMap
    if TBDefinitionLoader<Model>.detects(document.root) {
      var loader = TBDefinitionLoader<Model>(document, store: store)
      try loader.load()
      sites = loader.sites
    } else {
      var loader = JSONDefinitionLoader<Model>(document, bindings: bindings, store: store)
      try loader.load()
      sites = loader.sites
      warnings += bindings.guardNames.filter { !loader.usedGuards.contains($0) }.map {
        "guard '\($0)' is bound but the document does not use it"
      }
      warnings += bindings.actionNames.filter { !loader.usedActions.contains($0) }.map {
        "action '\($0)' is bound but the document does not use it"
      }
      warnings += bindings.invocationNames.filter { !loader.usedInvocations.contains($0) }.map {
        "invocation '\($0)' is bound but the document does not use it"
      }
    }
    store.clock = clock
    self.init { sm in
      sm.store = store
      build(sm)
    }
    // An error the checks find is reported where its culprit is written.
    if let definitionError { throw document.locate(definitionError, culprits: definitionCulprits, sites: sites) }
    definitionWarnings = warnings
  }
}

extension DynamicStateMachine {
  /// A machine in the initial state of a JSON definition; see
  /// ``StateMachineDefinition/init(json:limits:clock:bind:_:)``.
  public convenience init(
    json data: Data, limits: JSONLimits = JSONLimits(), clock: any Clock<Duration> = ContinuousClock(),
    bind: (inout Bindings<DynamicStateMachine>) -> Void = { _ in },
    _ build: (StateMachineBuilder<DynamicStateMachine>) -> Void = { _ in }
  ) throws(DefinitionError) {
    self.init(try StateMachineDefinition(json: data, limits: limits, clock: clock, bind: bind, build))
  }
}

extension StateMachineDefinition {
  /// The definition as a `statemachines/1` JSON document (Hierarchy §7): states in document
  /// order, each transition under its source in declaration order, guards and actions by the
  /// names they were bound to. Loading the result with the same bindings gives the same machine
  /// (the same states, transitions and order).
  ///
  /// - Throws: ``DefinitionError/invalidValue(_:context:)`` for what the format cannot express:
  ///   a guard or action written as a closure in code (it has no name), a wildcard, a
  ///   notification trigger, `die`, an anonymous region, or a definition that is invalid.
  public func jsonDefinition() throws(DefinitionError) -> String {
    if let definitionError { throw definitionError }
    return try JSONExporter(declarations).document().text
  }

  /// The definition's shape as a `statemachines/1` document, for tools that show a machine
  /// without its code (the catalog of machine tables, the Inspecting article): what the format
  /// cannot express is left out instead of refused. A guard written in code is written as the
  /// guard named `code` (so a tool still sees that the transition is guarded); actions and
  /// callbacks in code, wildcard, notification and terminating transitions and invokes whose
  /// work is code are left out.
  package func jsonOutline() throws(DefinitionError) -> String {
    if let definitionError { throw definitionError }
    return try JSONExporter(declarations, outline: true).document().text
  }
}
