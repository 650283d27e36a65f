/// The limits a JSON definition must stay within (Hierarchy §7). A document past any of them
/// is rejected with a ``DefinitionError`` before it can exhaust memory or time.
public struct JSONLimits: Sendable, Equatable {
  /// The most bytes a document may have (16 MiB).
  public var maxBytes: Int
  /// The deepest nesting of arrays and objects (64).
  public var maxDepth: Int
  /// The most states, pseudostates included (10,000).
  public var maxStates: Int
  /// The most transitions (100,000).
  public var maxTransitions: Int
  /// The longest state, event, guard or action name, in UTF-8 bytes (256).
  public var maxNameBytes: Int

  /// The default limits, or others.
  public init(
    maxBytes: Int = 16 << 20, maxDepth: Int = 64, maxStates: Int = 10_000, maxTransitions: Int = 100_000,
    maxNameBytes: Int = 256
  ) {
    self.maxBytes = maxBytes
    self.maxDepth = maxDepth
    self.maxStates = maxStates
    self.maxTransitions = maxTransitions
    self.maxNameBytes = maxNameBytes
  }
}
