/// Gives a class a state machine generated from its ``StateMachineDefinition``.
///
/// Declare the definition as a static property of the class; the macro finds it by its type:
///
/// ```swift
/// @StateMachine
/// final class Subscription {
///   static let stateMachine = StateMachineDefinition<Subscription> { sm in
///     sm.initialState = "pending"
///     sm.addState("pending")
///     sm.addState("active")
///     sm.when("activate", transitionFrom: "pending", to: "active")
///   }
/// }
/// ```
///
/// The macro adds, with the class's access level:
/// - `state: String`, the current state, written only by transitions or ``StateMachineObject/restoreState(_:)``;
/// - one `@discardableResult func <event>() -> Bool` (and `<event>(with:)` taking a payload) per event;
/// - one `is<State>: Bool` per state and one `can<Event>: Bool` per event;
/// - for a class that conforms to ``StoreManagedStateMachine`` (however it says so: the compiler
///   tells the macro), `async throws(StateMachineStoreError) -> Bool` event methods that fire one
///   store step in place of the synchronous ones, and the enums `EventName` and `StateName`;
/// - a conformance to ``StateMachineObject``, which adds the string-keyed API
///   (`fire("activate")`, `can("activate")`, ``StateMachineObject/availableEvents``, …).
///
/// Names from string literals are checked at compile time: a transition or callback that names an
/// undeclared state or event, an empty name, a name that cannot form an identifier, two names that
/// form the same identifier and a generated member that clashes with one the class declares are
/// errors.
///
/// A class that conforms to `Sendable` (in its inheritance clause or in an extension) is serialised by a
/// ``StateMachineLock`` (it stores nothing for it), so it can be driven from many threads. A class
/// isolated to a global actor (`@MainActor`) gets isolated members, an isolated conformance, and
/// the string-keyed `fire`, `fireOrThrow`, `can` and `isInState` as members callable with `await`.
@attached(
  member,
  conformances: StoreManagedStateMachine, Sendable,
  names: named(state), named(stateMachineDefinition), named(_$stateMachineStorage),
  named(_$stateMachineLock), named(_$stateMachineModel), named(EventName), named(StateName), arbitrary)
@attached(extension, conformances: StateMachineObject)
public macro StateMachine() =
  #externalMacro(module: "StateMachinesMacros", type: "StateMachineMacro")
