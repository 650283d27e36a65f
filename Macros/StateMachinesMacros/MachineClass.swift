import SwiftSyntax

/// What the macro needs to know about the annotated class.
struct MachineClass {
  let declaration: ClassDeclSyntax
  /// The class's simple name, usable inside its body (also for nested classes).
  let name: String
  /// The modifier generated members get: `public `, `package ` or nothing.
  let accessModifier: String
  let isFinal: Bool
  /// Conforms to `Sendable` (checked or `@unchecked`, in its inheritance clause or in an
  /// extension), or is store-managed: gets a lock.
  let declaresSendable: Bool
  /// Lists `StoreManagedStateMachine`: its state changes only through its store (Persistence
  /// P13), so its storage is marked store-managed and `Codable` leaves the state out.
  let isStoreManaged: Bool
  /// The global actor it is isolated to (`MainActor`), if any: members and conformance follow it.
  let globalActor: String?

  /// `conformingTo`: for the member role, the protocols of its `conformances:` list that the
  /// compiler found the class does not conform to (SE-0407). A protocol missing from it is one the
  /// class conforms to however it says so: in its inheritance clause, through a refining protocol
  /// (`PostgresStateMachineRecord`) or in an extension. `nil` when unknown.
  init(_ declaration: ClassDeclSyntax, conformingTo: [TypeSyntax]? = nil) {
    self.declaration = declaration
    name = declaration.name.text
    let modifiers = declaration.modifiers.map(\.name.tokenKind)
    if modifiers.contains(.keyword(.public)) || modifiers.contains(.keyword(.open)) {
      accessModifier = "public "
    } else if modifiers.contains(.keyword(.package)) {
      accessModifier = "package "
    } else {
      accessModifier = ""
    }
    isFinal = modifiers.contains(.keyword(.final))
    let listsStoreManaged =
      declaration.inheritanceClause?.inheritedTypes.contains { inherited in
        Self.storeManagedProtocols.contains(Self.baseName(of: inherited.type) ?? "")
      } ?? false
    let conformsStoreManaged =
      conformingTo.map { missing in
        !missing.contains { Self.baseName(of: $0) == "StoreManagedStateMachine" }
      } ?? false
    isStoreManaged = listsStoreManaged || conformsStoreManaged
    // A store-managed class gets a lock like one that conforms to `Sendable`, however that is
    // declared (in the inheritance clause, or in an extension: the compiler says).
    let listsSendable =
      declaration.inheritanceClause?.inheritedTypes.contains { inherited in
        Self.baseName(of: inherited.type) == "Sendable"
      } ?? false
    let conformsSendable =
      conformingTo.map { missing in !missing.contains { Self.baseName(of: $0) == "Sendable" } } ?? false
    declaresSendable = isStoreManaged || listsSendable || conformsSendable
    globalActor = declaration.attributes.lazy.compactMap { element -> String? in
      guard case .attribute(let attribute) = element,
        let name = Self.baseName(of: attribute.attributeName), name.hasSuffix("Actor")
      else { return nil }
      return attribute.attributeName.trimmedDescription
    }.first
  }

  /// `StoreManagedStateMachine` and the library's protocols that refine it, recognised by name
  /// where the compiler does not say (a macro expansion test).
  static let storeManagedProtocols: Set<String> = ["StoreManagedStateMachine", "PostgresStateMachineRecord"]

  /// Declares `Codable`, `Decodable` or `Encodable`: the storage must be codable too.
  var isCodable: Bool {
    declaration.inheritanceClause?.inheritedTypes.contains { inherited in
      ["Codable", "Decodable", "Encodable"].contains(Self.baseName(of: inherited.type))
    } ?? false
  }

  /// Has `@Observable`: the generated `state` reports reads and writes to Observation.
  var isObservable: Bool {
    declaration.attributes.contains { element in
      guard case .attribute(let attribute) = element else { return false }
      return Self.baseName(of: attribute.attributeName) == "Observable"
    }
  }

  /// Whether events are serialised by a lock: a `Sendable` class not isolated to an actor.
  var needsLock: Bool { declaresSendable && globalActor == nil }

  /// The instance members the class declares itself, keyed by the name a generated member would
  /// clash with: `activate` for a property or a function without parameters, `activate(with:)` for
  /// a function with argument labels. Static members and overloads with other argument labels can
  /// live next to the generated members, so they do not clash.
  var declaredMembers: [String: DeclSyntax] {
    var names: [String: DeclSyntax] = [:]
    for member in declaration.memberBlock.members {
      let decl = member.decl
      if let function = decl.as(FunctionDeclSyntax.self), !Self.isStatic(function.modifiers) {
        let labels = function.signature.parameterClause.parameters.map { "\($0.firstName.text):" }
        let key = labels.isEmpty ? function.name.text : "\(function.name.text)(\(labels.joined()))"
        names[key] = names[key] ?? decl
      } else if let variable = decl.as(VariableDeclSyntax.self), !Self.isStatic(variable.modifiers) {
        for binding in variable.bindings {
          if let identifier = binding.pattern.as(IdentifierPatternSyntax.self) {
            names[identifier.identifier.text] = names[identifier.identifier.text] ?? decl
          }
        }
      }
    }
    return names
  }

  /// Declares its own `CodingKeys`: the macro then leaves coding keys to the user.
  var declaresCodingKeys: Bool {
    declaration.memberBlock.members.contains { member in
      member.decl.as(EnumDeclSyntax.self)?.name.text == "CodingKeys"
        || member.decl.as(TypeAliasDeclSyntax.self)?.name.text == "CodingKeys"
    }
  }

  /// The `CodingKeys` cases of the stored properties a synthesized `Codable` conformance encodes
  /// and decodes: instance, not lazy, without a getter, and not a `let` with an initial value
  /// (never decoded). In an `@Observable` class a tracked `var` is stored as `_name`, so its case
  /// is `_name = "name"`.
  var codingKeyCases: [String] {
    var cases: [String] = []
    for member in declaration.memberBlock.members {
      guard let variable = member.decl.as(VariableDeclSyntax.self), !Self.isStatic(variable.modifiers),
        !variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) })
      else { continue }
      let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
      for binding in variable.bindings {
        guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
        if isLet && binding.initializer != nil { continue }
        if let accessors = binding.accessorBlock {
          guard case .accessors(let list) = accessors.accessors,
            list.allSatisfy({ [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) })
          else { continue }
        }
        let name = identifier.identifier.text
        let isTracked = isObservable && !isLet && !Self.hasAttribute("ObservationIgnored", variable.attributes)
        cases.append(isTracked ? "_\(name) = \"\(name)\"" : name)
      }
    }
    return cases
  }

  private static func hasAttribute(_ name: String, _ attributes: AttributeListSyntax) -> Bool {
    attributes.contains { element in
      guard case .attribute(let attribute) = element else { return false }
      return baseName(of: attribute.attributeName) == name
    }
  }

  private static func isStatic(_ modifiers: DeclModifierListSyntax) -> Bool {
    modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
  }

  /// `Sendable` for `Sendable`, `@unchecked Sendable` and `Swift.Sendable`.
  static func baseName(of type: TypeSyntax) -> String? {
    if let attributed = type.as(AttributedTypeSyntax.self) { return baseName(of: attributed.baseType) }
    if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text }
    if let member = type.as(MemberTypeSyntax.self) { return member.name.text }
    return nil
  }
}
