// The callbacks of the DSL: `before` and `after` an event, entry and exit actions, observers.

import Foundation

extension StateMachineBuilder {
  // MARK: Callbacks

  /// Runs `callback` before every transition of `event`, while the state is still the old one.
  /// Throwing aborts the transition; nothing changes.
  public func before(_ event: String, _ callback: @escaping (Model) throws -> Void) {
    store.beforeCallbacks.append(.init(name: event, body: .plain(callback)))
  }

  /// Runs `callback`, which receives the ``Transition``, before every transition of `event`.
  public func before(_ event: String, _ callback: @escaping Callback) {
    store.beforeCallbacks.append(.init(name: event, body: .withTransition(callback)))
  }

  /// Runs `callback` after every transition of `event`, once the state is the new one.
  public func after(_ event: String, _ callback: @escaping (Model) throws -> Void) {
    store.afterCallbacks.append(.init(name: event, body: .plain(callback)))
  }

  /// Runs `callback`, which receives the ``Transition``, after every transition of `event`.
  public func after(_ event: String, _ callback: @escaping Callback) {
    store.afterCallbacks.append(.init(name: event, body: .withTransition(callback)))
  }

  /// Runs `action` whenever `state` is entered by an external transition.
  public func onEntry(_ state: String, _ action: @escaping (Model) throws -> Void) {
    store.entryActions.append(.init(state: reference(state), body: .callback(.plain(action))))
  }

  /// Runs `action`, which receives the ``Transition``, whenever `state` is entered.
  public func onEntry(_ state: String, _ action: @escaping Callback) {
    store.entryActions.append(.init(state: reference(state), body: .callback(.withTransition(action))))
  }

  /// Runs `action` whenever `state` is entered; the ``NextStep`` it returns, if any, is processed
  /// as the next run-to-completion step (Stately's `StateChange`).
  public func onEntry(
    _ state: String, then action: @escaping (Model, Transition) throws -> NextStep?
  ) {
    store.entryActions.append(.init(state: reference(state), body: .then(action)))
  }

  /// Runs `action` whenever this builder's state is entered (a scoped builder only).
  public func onEntry(_ action: @escaping (Model, Transition) throws -> Void) {
    store.entryActions.append(.init(state: .node(scope), body: .callback(.withTransition(action))))
  }

  /// Runs `action` whenever `state` is left by an external transition.
  public func onExit(_ state: String, _ action: @escaping (Model) throws -> Void) {
    store.exitActions.append(.init(state: reference(state), body: .plain(action)))
  }

  /// Runs `action`, which receives the ``Transition``, whenever `state` is left.
  public func onExit(_ state: String, _ action: @escaping Callback) {
    store.exitActions.append(.init(state: reference(state), body: .withTransition(action)))
  }

  /// Runs `action` whenever this builder's state is left (a scoped builder only).
  public func onExit(_ action: @escaping (Model, Transition) throws -> Void) {
    store.exitActions.append(.init(state: .node(scope), body: .withTransition(action)))
  }

  /// Calls `observer` after every transition (old state, event and new state are in the
  /// ``Transition``), once the `after` callbacks ran.
  public func didTransition(_ observer: @escaping (Model, Transition) -> Void) {
    store.observers.append(observer)
  }
}
