import Testing
@Test func placeholder2() { #expect(1 == 1) }
