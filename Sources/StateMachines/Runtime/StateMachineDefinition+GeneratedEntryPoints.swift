// The entry points of generated members: the `_$`-prefixed statics that `@StateMachine`'s event
// methods and queries call. Not part of the documented API.

extension StateMachineDefinition {
  // MARK: Entry points of generated members
  //
  // A generated member reaches its definition through the class's IDs static, which keeps the
  // definition as an opaque pointer: reading a strong reference out of the static would retain
  // and release it on every call (two atomic operations). The pointer stays valid because the
  // definition is a `static let` of the class, alive for the rest of the process. The object is
  // driven by this definition by construction, so only the ID is checked.

  /// The opaque pointer a class's IDs keep for `definition` (see above).
  @inlinable @inline(__always)
  @_documentation(visibility: internal)
  public static func _$opaque(_ definition: StateMachineDefinition<Model>) -> UnsafeRawPointer {
    UnsafeRawPointer(Unmanaged.passUnretained(definition).toOpaque())
  }

  /// ``fire(_:on:)`` for a generated event method.
  @inlinable @inline(__always)
  @_documentation(visibility: internal)
  public static func _$fire(_ definition: UnsafeRawPointer, _ event: StateMachineEventID, on model: Model) -> Bool {
    Unmanaged<StateMachineDefinition<Model>>.fromOpaque(definition)._withUnsafeGuaranteedRef {
      $0.fire(event, model, modelChecked: true, soleAfterInPlace: true)
    }
  }

  /// ``fire(_:payload:on:)`` for a generated event method that takes a payload. (A name of its
  /// own, not an overload of `_$fire`: generated code that names one function type-checks faster.)
  @inlinable
  @_documentation(visibility: internal)
  public static func _$fireWithPayload(
    _ definition: UnsafeRawPointer, _ event: StateMachineEventID, payload: any Sendable, on model: Model
  ) -> Bool {
    Unmanaged<StateMachineDefinition<Model>>.fromOpaque(definition)._withUnsafeGuaranteedRef {
      $0.fire(event, payload: payload, on: model)
    }
  }

  /// ``can(_:on:)`` for a generated `can<Event>` query.
  @inlinable @inline(__always)
  @_documentation(visibility: internal)
  public static func _$can(_ definition: UnsafeRawPointer, _ event: StateMachineEventID, on model: Model) -> Bool {
    Unmanaged<StateMachineDefinition<Model>>.fromOpaque(definition)._withUnsafeGuaranteedRef {
      $0.can(event, model, modelChecked: true)
    }
  }

  /// ``isInState(_:on:)`` for a generated `is<State>` query.
  @inlinable @inline(__always)
  @_documentation(visibility: internal)
  public static func _$isInState(_ definition: UnsafeRawPointer, _ state: StateMachineStateID, on model: Model) -> Bool {
    Unmanaged<StateMachineDefinition<Model>>.fromOpaque(definition)._withUnsafeGuaranteedRef {
      $0.isInState(state, on: model)
    }
  }
}
