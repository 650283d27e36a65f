import Foundation

/// The delayed sends of one definition's objects that carry an id, so that `<cancel>`
/// (``DeclaredAction/cancel(_:)``, ``StateMachineObject/cancelPost(id:)``) can find them: per
/// object and id, the scheduler entries not yet fired. A send is recorded before it is armed and
/// delivers only if it is still recorded when it fires, so a cancel always wins over a send that
/// has not been delivered.
///
/// `@unchecked Sendable`: `entries` and `nextToken` are read and written only under `lock`.
final class DelayedSends: @unchecked Sendable {
  private struct Key: Hashable {
    let object: ObjectIdentifier
    let id: String
  }

  /// Per token, the scheduler's entry (`nil` while it is being armed).
  private var entries: [Key: [UInt64: UInt64?]] = [:]
  private var nextToken: UInt64 = 0
  private let lock = NSLock()

  /// Arms `deliver` on `scheduler` after `delay` under `id`.
  func schedule(
    _ delay: Duration, id: String, object: AnyObject, on scheduler: any TimeoutScheduler,
    _ deliver: @escaping @Sendable () async -> Void
  ) {
    let key = Key(object: ObjectIdentifier(object), id: id)
    let token = lock.locked {
      nextToken += 1
      entries[key, default: [:]][nextToken] = .some(nil)
      return nextToken
    }
    let timer = scheduler.schedule(after: delay) { [weak self] in
      guard let self, self.forget(key, token) else { return }
      await deliver()
    }
    lock.locked {
      // Still recorded: not fired and not cancelled yet.
      if entries[key]?[token] != nil { entries[key]![token] = timer }
    }
  }

  /// Forgets the send `token`; `false` if a cancel took it first.
  private func forget(_ key: Key, _ token: UInt64) -> Bool {
    lock.locked {
      guard entries[key]?.removeValue(forKey: token) != nil else { return false }
      if entries[key]?.isEmpty == true { entries[key] = nil }
      return true
    }
  }

  /// Cancels every send of `object` under `id` that has not been delivered.
  func cancel(_ id: String, object: AnyObject, on scheduler: any TimeoutScheduler) {
    let removed = lock.locked { entries.removeValue(forKey: Key(object: ObjectIdentifier(object), id: id)) } ?? [:]
    for case let timer? in removed.values { scheduler.cancel(timer) }
  }

  /// The number of sends waiting under an id.
  var count: Int { lock.locked { entries.values.reduce(0) { $0 + $1.count } } }
}
