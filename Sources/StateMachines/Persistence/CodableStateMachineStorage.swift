/// Gives a generated ``StateMachineStorage`` a way to find its definition while decoding.
///
/// ``StateMachine()`` generates one, `_$StateMachineDefinitionProvider`, in a class that declares
/// `Codable`, `Decodable` or `Encodable`.
public protocol StateMachineDefinitionProvider {
  /// The class the definition drives.
  associatedtype Model: StateMachineObject
  /// The class's definition.
  static var definition: StateMachineDefinition<Model> { get }
}

/// The storage of a `Codable` machine object, in a box of its own.
///
/// It encodes as the current state's name, or, for a machine that terminated in a state that is
/// not final (by `die`), as `{"state": name, "terminated": true}`, so that a round trip keeps
/// everything observable. Decoding a string that is not a state of the machine fails with a
/// `DecodingError` that says so. A decoded machine is in the saved state without having run any
/// callback; its timeouts and notifications are armed on first use.
///
/// ``StateMachine()`` generates it instead of a plain ``StateMachineStorage`` for a class that
/// declares `Codable`, `Decodable` or `Encodable`, so the synthesized conformance keeps working.
/// A box, because encoding reads it from the object without the runtime's help: the box's address
/// names the lock that guards the storage, so encoding a `Sendable` object takes a consistent
/// snapshot even while another thread fires its events.
///
/// It is `Sendable` (`@unchecked`: for a `Sendable` object the runtime reads and writes
/// ``storage`` only under ``lock``, and encoding always takes it; the box of an object that is
/// not `Sendable` stays in that object's one context).
public final class CodableStateMachineStorage<Provider: StateMachineDefinitionProvider>: Codable,
  @unchecked Sendable
{
  /// The storage the runtime reads and writes, under ``lock`` for a `Sendable` object.
  @exclusivity(unchecked) public var storage: StateMachineStorage

  /// The lock that guards ``storage`` of a `Sendable` object.
  public var lock: StateMachineLock { StateMachineLock(guarding: self) }

  /// Storage in the definition's initial state.
  public init() {
    storage = StateMachineStorage(Provider.definition)
  }

  /// Storage in the definition's initial state for a store-managed object (P13).
  public init(storeManaged: Bool) {
    storage = StateMachineStorage(Provider.definition, storeManaged: storeManaged)
  }

  private enum Keys: String, CodingKey {
    case state, terminated, stateHistory
  }

  public init(from decoder: any Decoder) throws {
    let definition = Provider.definition
    let name: String
    var terminated = false
    var history: [String: [String]]?
    // The plain name first: it is what almost every object encodes, and a decoder that holds one
    // value (a database column) throws when asked for a keyed container.
    if let plain = try? decoder.singleValueContainer().decode(String.self) {
      name = plain
    } else {
      let keyed = try decoder.container(keyedBy: Keys.self)
      name = try keyed.decode(String.self, forKey: .state)
      terminated = try keyed.decodeIfPresent(Bool.self, forKey: .terminated) ?? false
      history = try keyed.decodeIfPresent([String: [String]].self, forKey: .stateHistory)
    }
    do {
      storage = try StateRestoring.decodedStorage(definition, state: name, history: history, terminated: terminated)
    } catch {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: "'\(name)' is not a state of the state machine of \(Provider.Model.self) (\(error)); "
            + "its states are \(definition.states)"))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    let definition = Provider.definition
    let encoded = lock.withLock { StateRestoring.encodedState(definition, of: storage) }
    let name = encoded.state
    // A statechart's history is kept under `stateHistory` (S15).
    if encoded.terminatedEarly || encoded.history != nil {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(name, forKey: .state)
      if encoded.terminatedEarly { try container.encode(true, forKey: .terminated) }
      if let history = encoded.history { try container.encode(history, forKey: .stateHistory) }
    } else {
      var container = encoder.singleValueContainer()
      try container.encode(name)
    }
  }
}
