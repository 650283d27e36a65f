// One persisted step, as the store writes it (P1): the machine columns before and after, one
// history row per microstep, the deadline rows to delete and to insert; and, once the store has
// committed, the work that must run only then (P5).

import Foundation

/// One run-to-completion step that ran on a store-loaded object, and what the store must write
/// for it in one transaction (P1).
///
/// Made by ``StateMachineDefinition/storeStep(_:payload:on:)``. The step ran completely in
/// memory: guards, `before` callbacks, exit actions, actions, entry actions, eventless and queued
/// steps, all on the object the store loaded. It armed no timer and ran no `after` callback,
/// observer or stream: those wait for ``committed()``, which the store calls once its transaction
/// has committed, and never for a step it rolled back (P5).
public struct StoreStep: Sendable {
  /// The event that started the step (empty for a start or a restore).
  public let event: String
  /// The machine columns the object was loaded with.
  public let before: StoredMachineState
  /// The machine columns to write; ``StoredMachineState/version`` is `before.version` plus the
  /// number of ``transitions`` (P1, P2).
  public let after: StoredMachineState
  /// The step's microsteps in order, one history row each, numbered `before.version + 1` on.
  public let transitions: [CompletedTransition]
  /// The states whose deadline rows the store deletes: those exited, those entered again
  /// (they are re-armed) and, when the machine terminated, all of them (P8).
  public let exited: [String]
  /// The deadline rows the store inserts (P8).
  public let armed: [ArmedTimeout]
  let held: HeldBack

  init(
    event: String, before: StoredMachineState, after: StoredMachineState, transitions: [CompletedTransition],
    exited: [String], armed: [ArmedTimeout], held: HeldBack
  ) {
    self.event = event
    self.before = before
    self.after = after
    self.transitions = transitions
    self.exited = exited
    self.armed = armed
    self.held = held
  }

  /// Whether the step holds back any work for ``committed()``: a store need not schedule a
  /// step that holds none.
  public var holdsWork: Bool { held.isEmpty == false }

  /// Runs what the step held back, in step order: the `after` callbacks, the `didTransition`
  /// observers and the object's transition streams (P5). Call it once the store's transaction
  /// has committed, and never for a rolled-back step. It runs at most once, however often it is
  /// called; it returns the errors the `after` callbacks threw (the step stands regardless), and
  /// writes each to the definition's ``StateMachineBuilder/log``.
  @discardableResult
  public func committed() -> [any Error] {
    held.run()
  }
}

/// The held-back work of one step; runs once.
///
/// `@unchecked Sendable`: `work` is taken and emptied under `lock`, so it runs at most once, on
/// the thread that calls ``StoreStep/committed()``; `report` is a `let`.
final class HeldBack: @unchecked Sendable {
  private let lock = NSLock()
  private var work: [() throws -> Void]
  /// Tells the definition's log about an error of the held-back work: the step stands, and no
  /// caller is waiting for it any more.
  private let report: (any Error) -> Void

  /// The held-back work of a step that holds none (a pure step, Persistence §6): shared, as it
  /// never changes.
  static let none = HeldBack([])

  init(_ work: [() throws -> Void], report: @escaping (any Error) -> Void = { _ in }) {
    self.work = work
    self.report = report
  }

  /// A pure step's shared empty value answers without the lock: every step of a batch asks.
  var isEmpty: Bool { self === Self.none || lock.locked { work.isEmpty } }

  func run() -> [any Error] {
    let pending = lock.locked {
      defer { work = [] }
      return work
    }
    var errors: [any Error] = []
    for item in pending {
      do {
        try item()
      } catch {
        report(error)
        errors.append(error)
      }
    }
    return errors
  }
}
