import Foundation
import StateMachines

extension StateMachineDefinition {
  /// Builds a definition from an SCXML document (Hierarchy §8): states, parallel states,
  /// finals, history, initial states and transitions with their events, conditions and types;
  /// `<raise>`, `<send>` (with `delay`, on `clock`, and `id`), `<cancel sendid>`,
  /// `<if>`/`<elseif>`/`<else>` on `In()` conditions, `<log>` (ignored), all imported as
  /// ``StateMachines/DeclaredAction``s that the path explorer runs too, and `<invoke>` (Invoke
  /// A.5): its `src` (or `type`) names work bound with `bind.invocation(_:_:)`, an absent `id`
  /// is `<state id>.<n>` (`n` counting the state's invokes from 0), and transitions on
  /// `done.invoke.<id>` / `error.invoke.<id>` written in the invoking state are its result
  /// transitions (in another state they are never taken: a result is dropped once its state is
  /// left); a descriptor that only matches them as a prefix (`done.invoke`, `*`) does not take
  /// them, and `autoforward="true"`, the expression attributes, `<param>`, `<content>`,
  /// `<finalize>` and nested SCXML sessions are refused. A `cond` other than
  /// `true`, `false` and `In('id')` combinations, and any other executable element, must be
  /// bound in `bind` by its text. `build` may then add states, transitions and callbacks in
  /// code, addressing the document's states by path, or set limits such as
  /// ``StateMachineBuilder/maxStepsPerRunToCompletion``.
  ///
  /// - Throws: ``DefinitionError/invalidDocument(_:line:column:)`` for malformed XML, an
  ///   unsupported element, an unknown id or an unbound name; any other ``DefinitionError`` the
  ///   definition's checks find, wrapped in ``DefinitionError/located(_:at:)`` with the line and
  ///   column of its culprits' elements (a culprit that `build` added has no location).
  public convenience init(
    scxml data: Data, clock: any Clock<Duration> = ContinuousClock(),
    bind: (inout Bindings<Model>) -> Void = { _ in }, _ build: (StateMachineBuilder<Model>) -> Void = { _ in }
  ) throws(DefinitionError) {
    var bindings = Bindings<Model>()
    bind(&bindings)
    let importer = try SCXMLImporter<Model>(try XMLTree.parse(data), bind: bindings)
    self.init { sm in
      sm.clock = clock
      for operation in importer.operations { operation(sm) }
      build(sm)
    }
    // An error the checks find is reported at the element of its culprit.
    if let definitionError { throw importer.locate(definitionError, culprits: definitionCulprits) }
  }
}

extension DynamicStateMachine {
  /// A machine in the initial configuration of an SCXML document; see
  /// ``StateMachines/StateMachineDefinition/init(scxml:clock:bind:_:)``.
  public convenience init(
    scxml data: Data, clock: any Clock<Duration> = ContinuousClock(),
    bind: (inout Bindings<DynamicStateMachine>) -> Void = { _ in },
    _ build: (StateMachineBuilder<DynamicStateMachine>) -> Void = { _ in }
  ) throws(DefinitionError) {
    self.init(try StateMachineDefinition(scxml: data, clock: clock, bind: bind, build))
  }
}
