import Testing

@testable import StateMachinesMacros

/// How names become identifiers, and which declared name a typo is closest to.
@Suite struct NameRulesTests {
  @Test(arguments: [
    ("pendingActivation", "pendingActivation"), ("in_progress", "inProgress"), ("on-hold", "onHold"),
    ("on hold", "onHold"), ("Open", "open"), ("step_2", "step2"), ("a__b", "aB"),
  ])
  func identifierIsLowerCamelCase(name: String, identifier: String) {
    #expect(NameRules.identifier(for: name) == identifier)
  }

  @Test(arguments: ["", "a.b", "1st", "_", "état", "a/b"])
  func nameWithoutIdentifierGivesNil(name: String) {
    #expect(NameRules.identifier(for: name) == nil)
  }

  @Test func editDistanceCountsSwapsAsOneEdit() {
    #expect(NameRules.editDistance("start", "start") == 0)
    #expect(NameRules.editDistance("strat", "start") == 1)
    #expect(NameRules.editDistance("actve", "active") == 1)
    #expect(NameRules.editDistance("", "abc") == 3)
    #expect(NameRules.editDistance("kitten", "sitting") == 3)
  }

  @Test func closestFindsTyposButNotUnrelatedNames() {
    #expect(NameRules.closest(to: "actve", among: ["idle", "active"]) == "active")
    #expect(NameRules.closest(to: "Active", among: ["idle", "active"]) == "active")
    #expect(NameRules.closest(to: "paused", among: ["idle", "active"]) == nil)
    #expect(NameRules.closest(to: "x", among: []) == nil)
  }
}
