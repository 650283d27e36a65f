/// Per-object resources that only some machines need: allocated on first use, so a plain object
/// stores none of it.
public final class StateMachineExtras {
  init() {}
}
