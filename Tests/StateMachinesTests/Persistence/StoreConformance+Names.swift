// Names in a store compare by canonical equivalence (Semantics §Names): a state or an
// event written with one spelling is found with the other, and rows keep the declared spelling.
// A `@StateMachine` class's names must form Swift identifiers (ASCII), so the other spelling
// here is the Kelvin sign (U+212A), canonically equivalent to `K`.

import Foundation
import StateMachines
import Testing

/// A kiosk whose names start with `K`, declared in ASCII.
@StateMachine
final class StoreKiosk: Codable, StoreManagedStateMachine, @unchecked Sendable {
  var id: Int
  var storeID: Int { id }

  init(id: Int) { self.id = id }

  static let stateMachine = StateMachineDefinition<StoreKiosk> { sm in
    sm.addState("open") { open in
      open.addState("Kiosk")
      open.addState("hall")
    }
    sm.addState("Kept")
    sm.when("Keep", transitionFrom: "open", to: "Kept")
    sm.when("reopen", transitionFrom: "Kept", to: "hall")
  }
}

/// The scalars of `text`, to tell spellings apart (`==` on `String` cannot).
func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

extension StoreConformance {
  /// Events, restores and scopes spelled with the Kelvin sign find the declarations spelled with
  /// `K`; loaded rows and history report the declared spelling.
  func canonicalNames() async throws {
    let kiosks = try await store(StoreKiosk.self)
    let id = StoreTestIDs.next()
    try await kiosks.insert(StoreKiosk(id: id))
    let fired = try await kiosks.fire("\u{212A}eep", on: id)
    #expect(scalars(fired.to) == scalars("Kept"))
    #expect(try await kiosks.count(in: "\u{212A}ept") == 1)
    #expect(try await kiosks.ids(in: "\u{212A}ept", after: nil, limit: 10) == [id])
    try await kiosks.fire("reopen", on: id)
    try await kiosks.restore(id, to: "open/\u{212A}iosk", reason: "canonical names")
    let loaded = try #require(try await kiosks.load(id))
    #expect(scalars(loaded.state) == scalars("open/Kiosk"))
    #expect(try await kiosks.count(in: "\u{212A}iosk") == 1)
    #expect(try await kiosks.count(in: "open") == 1)
    #expect(try await kiosks.count(in: "kiosk") == 0)
    let history = try await kiosks.history(of: id)
    #expect(history.count == 3)
    #expect(history.prefix(2).map { scalars($0.event) } == [scalars("Keep"), scalars("reopen")])
    // A stale object, fired with the other spelling, conflicts.
    let object = try #require(try await kiosks.load(id))
    try await kiosks.fire("Keep", on: object)
    #expect(await storeError { try await kiosks.fire("\u{212A}eep", on: object) } != nil)
  }
}
