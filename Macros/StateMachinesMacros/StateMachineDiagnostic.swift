import StateMachinesNames
import SwiftDiagnostics

/// The errors and warnings `@StateMachine` reports.
enum StateMachineDiagnostic: DiagnosticMessage {
  case notAClass(kind: String, name: String)
  case missingDefinition(className: String)
  case multipleDefinitions(className: String)
  case definitionNotStoredLet(property: String, problem: String)
  case undeclaredState(String, context: String)
  case undeclaredEvent(String, context: String)
  case emptyName(kind: String, context: String)
  case invalidIdentifier(kind: String, name: String)
  case keyword(kind: String, name: String, identifier: String)
  case sameIdentifier(kind: String, name: String, otherKind: String, other: String, identifier: String)
  case clashesWithMember(member: String, origin: String, className: String)
  case nonLiteralName(kind: String)
  case triggerNeedsIsolation(className: String)
  case reservedName(kind: String, name: String, member: String)
  case ambiguousState(String, candidates: [String], context: String)
  case invalidPath(String, reason: String, context: String)
  case invalidName(String, context: String)
  case duplicateState(String)
  case pseudostateSource(String, context: String)
  case targetsInOneRegion(String, String, context: String)
  case localBehavesAsExternal(from: String, to: String)
  case invokeNeedsIsolation(className: String)
  case duplicateInvoke(String)
  case invokeInFinalOrPseudostate(id: String, state: String, reason: String)
  case undeclaredInvoke(String, method: String)
  case reservedInvokeEvent(String)

  var message: String {
    switch self {
    case .notAClass(let kind, let name):
      return "'@StateMachine' cannot be applied to \(kind) type '\(name)'"
    case .missingDefinition(let className):
      return "'@StateMachine' class '\(className)' has no 'static let' of type 'StateMachineDefinition<\(className)>'"
    case .multipleDefinitions(let className):
      return "'@StateMachine' class '\(className)' has more than one 'StateMachineDefinition'"
    case .definitionNotStoredLet(let property, let problem):
      return "state machine definition '\(property)' must be a stored 'static let' with an initializer, not \(problem): the generated members keep the definition they read first"
    case .undeclaredState(let name, let context):
      return NameError.undeclared(name).message(context: context)
    case .undeclaredEvent(let name, let context):
      return "\(context) names undeclared event '\(name)'"
    case .emptyName(_, let context):
      return NameError.empty.message(context: context)
    case .invalidIdentifier(let kind, let name):
      return "\(kind) name '\(name)' cannot form a Swift identifier; use letters, digits, '_', '-' or spaces, starting with a letter"
    case .keyword(let kind, let name, let identifier):
      return "\(kind) '\(name)' would generate a member named '\(identifier)', which is a Swift keyword"
    case .sameIdentifier(let kind, let name, let otherKind, let other, let identifier):
      return "\(kind) '\(name)' and \(otherKind) '\(other)' both generate '\(identifier)'"
    case .clashesWithMember(let member, let origin, let className):
      return "'@StateMachine' generates '\(member)' for \(origin), but '\(className)' already declares it"
    case .reservedName(let kind, let name, let member):
      return "\(kind) '\(name)' would generate '\(member)', which every state machine object already has"
    case .triggerNeedsIsolation(let className):
      return "timeouts and notifications deliver events from another thread; '\(className)' must be isolated to a global actor (such as '@MainActor') or declare 'Sendable'"
    case .ambiguousState(let name, let candidates, let context):
      return NameError.ambiguous(name, candidates: candidates).message(context: context)
    case .invalidPath(let path, let reason, let context):
      return NameError.invalidPath(path, reason: reason).message(context: context)
    case .invalidName(let name, let context):
      return NameError.reservedCharacter(name).message(context: context)
    case .duplicateState(let name):
      return NameError.duplicate(name).located
    case .pseudostateSource(let name, let context):
      return "\(context) leaves pseudostate '\(name)'; only states are sources"
    case .targetsInOneRegion(let first, let second, let context):
      return "\(context) targets '\(first)' and '\(second)', which are not in distinct regions of one parallel state"
    case .localBehavesAsExternal(let from, let to):
      return "a local transition from '\(from)' to '\(to)' behaves as external: neither state contains the other"
    case .invokeNeedsIsolation(let className):
      return "'invoke' delivers its results from another task; '\(className)' must be isolated to a global actor (such as '@MainActor') or declare 'Sendable'"
    case .duplicateInvoke(let id):
      return "invoke('\(id)') is declared twice"
    case .invokeInFinalOrPseudostate(let id, let state, let reason):
      return "invoke('\(id)') in '\(state)': \(reason)"
    case .undeclaredInvoke(let id, let method):
      return "'\(method)' names '\(id)', but no invoke '\(id)' is declared"
    case .reservedInvokeEvent(let name):
      return "'\(name)' is reserved for whenInvokeDone and whenInvokeFailed in a machine that invokes"
    case .nonLiteralName(let kind):
      let use = kind == "event" ? "'fire(_:)'" : "'isInState(_:)'"
      return "\(kind) name is not a string literal, so no member is generated for it; use \(use)"
    }
  }

  /// The diagnostic of a name error of the names model, in its one wording.
  static func name(_ error: NameError, context: String) -> StateMachineDiagnostic {
    switch error {
    case .empty: return .emptyName(kind: "state", context: context)
    case .reservedCharacter(let name), .notPortable(let name): return .invalidName(name, context: context)
    case .undeclared(let name): return .undeclaredState(name, context: context)
    case .ambiguous(let name, let candidates): return .ambiguousState(name, candidates: candidates, context: context)
    case .invalidPath(let path, let reason): return .invalidPath(path, reason: reason, context: context)
    case .duplicate(let name): return .duplicateState(name)
    }
  }

  var diagnosticID: MessageID {
    let id: String
    switch self {
    case .notAClass: id = "notAClass"
    case .missingDefinition: id = "missingDefinition"
    case .multipleDefinitions: id = "multipleDefinitions"
    case .definitionNotStoredLet: id = "definitionNotStoredLet"
    case .undeclaredState: id = "undeclaredState"
    case .undeclaredEvent: id = "undeclaredEvent"
    case .emptyName: id = "emptyName"
    case .invalidIdentifier: id = "invalidIdentifier"
    case .keyword: id = "keyword"
    case .sameIdentifier: id = "sameIdentifier"
    case .clashesWithMember: id = "clashesWithMember"
    case .nonLiteralName: id = "nonLiteralName"
    case .triggerNeedsIsolation: id = "triggerNeedsIsolation"
    case .reservedName: id = "reservedName"
    case .ambiguousState: id = "ambiguousState"
    case .invalidPath: id = "invalidPath"
    case .invalidName: id = "invalidName"
    case .duplicateState: id = "duplicateState"
    case .pseudostateSource: id = "pseudostateSource"
    case .targetsInOneRegion: id = "targetsInOneRegion"
    case .localBehavesAsExternal: id = "localBehavesAsExternal"
    case .invokeNeedsIsolation: id = "invokeNeedsIsolation"
    case .duplicateInvoke: id = "duplicateInvoke"
    case .invokeInFinalOrPseudostate: id = "invokeInFinalOrPseudostate"
    case .undeclaredInvoke: id = "undeclaredInvoke"
    case .reservedInvokeEvent: id = "reservedInvokeEvent"
    }
    return MessageID(domain: "StateMachines", id: id)
  }

  var severity: DiagnosticSeverity {
    switch self {
    case .nonLiteralName, .localBehavesAsExternal: return .warning
    default: return .error
    }
  }
}

/// Notes that point at the other side of a conflict.
enum StateMachineNote: NoteMessage {
  /// A member of the class, or a definition property.
  case declaredHere(String)
  /// A state or event name in the definition.
  case nameDeclaredHere(kind: String, name: String)
  /// One of the states an ambiguous name could mean.
  case candidate(String)

  var message: String {
    switch self {
    case .declaredHere(let what): return "'\(what)' declared here"
    case .nameDeclaredHere(let kind, let name): return "\(kind) '\(name)' declared here"
    case .candidate(let path): return "'\(path)' declared here"
    }
  }

  var noteID: MessageID {
    switch self {
    case .declaredHere: return MessageID(domain: "StateMachines", id: "declaredHere")
    case .nameDeclaredHere: return MessageID(domain: "StateMachines", id: "nameDeclaredHere")
    case .candidate: return MessageID(domain: "StateMachines", id: "candidate")
    }
  }
}

/// The fix-its `@StateMachine` offers.
enum StateMachineFixIt: FixItMessage {
  case useClass(kind: String)
  case insertDefinition
  case replaceName(String)
  case declareState(String)
  case removeMember(String)
  case addMainActor
  case makeStoredStaticLet(String)

  var message: String {
    switch self {
    case .useClass(let kind): return "change '\(kind)' to 'final class'"
    case .insertDefinition: return "add a state machine definition"
    case .replaceName(let name): return "use '\(name)'"
    case .declareState(let name): return "add state '\(name)'"
    case .removeMember(let name): return "remove '\(name)'; '@StateMachine' generates it"
    case .addMainActor: return "isolate the class to '@MainActor'"
    case .makeStoredStaticLet(let property): return "make '\(property)' a stored 'static let'"
    }
  }

  var fixItID: MessageID {
    switch self {
    case .useClass: return MessageID(domain: "StateMachines", id: "useClass")
    case .insertDefinition: return MessageID(domain: "StateMachines", id: "insertDefinition")
    case .replaceName: return MessageID(domain: "StateMachines", id: "replaceName")
    case .declareState: return MessageID(domain: "StateMachines", id: "declareState")
    case .removeMember: return MessageID(domain: "StateMachines", id: "removeMember")
    case .addMainActor: return MessageID(domain: "StateMachines", id: "addMainActor")
    case .makeStoredStaticLet: return MessageID(domain: "StateMachines", id: "makeStoredStaticLet")
    }
  }
}
