// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

let package = Package(
  name: "StateMachines",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .macCatalyst(.v16)],
  products: [
    .library(name: "StateMachines", targets: ["StateMachines"]),
    .library(name: "StateMachinesSCXML", targets: ["StateMachinesSCXML"]),
    // The SQLite store (Persistence §4.2): built on GRDB, which is fetched only with the trait.
    .library(name: "StateMachinesSQLite", targets: ["StateMachinesSQLite"]),
    // The PostgreSQL store (Persistence §4.2, the ManyApplicationServers article): on postgres-nio, fetched only with the trait.
    .library(name: "StateMachinesPostgres", targets: ["StateMachinesPostgres"]),
    // The live inspector for apps (Inspecting): a page that watches and drives attached objects,
    // on FlyingFox, fetched only with the trait.
    .library(name: "StateMachinesInspector", targets: ["StateMachinesInspector"]),
  ],
  // Store adapters are off by default, so that `swift build` fetches nothing but swift-syntax.
  traits: [
    .trait(name: "SQLite", description: "The SQLite store, StateMachinesSQLite, on GRDB."),
    .trait(name: "PostgreSQL", description: "The PostgreSQL store, StateMachinesPostgres, on postgres-nio."),
    .trait(name: "Inspector", description: "The live inspector, StateMachinesInspector, on FlyingFox."),
    .default(enabledTraits: []),
  ],
  dependencies: [
    .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"605.0.0"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    // The PostgreSQL store runs as a ServiceLifecycle `Service`; fetched only with the trait.
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    // The SQLite store's scheduler reports failed passes to the application's Logger; fetched
    // only with the trait (postgres-nio brings it with PostgreSQL).
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    // The inspector's HTTP server: no dependencies of its own; 0.x, so pinned to the minor
    // (Inspecting B.2). Fetched only with the trait.
    .package(url: "https://github.com/swhitty/FlyingFox", .upToNextMinor(from: "0.27.1")),
  ],
  targets: [
    .macro(
      name: "StateMachinesMacros",
      dependencies: [
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
        .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
        "StateMachinesNames",
      ],
      path: "Macros/StateMachinesMacros"
    ),
    // The lock table and per-thread step records (C: atomics without the Synchronization module,
    // which needs macOS 15). Internal to StateMachines.
    .target(name: "StateMachinesSupport"),
    // The name model (Hierarchy N4–N6): name grammar, paths, N5 resolution, node kinds and their
    // errors. Pure Swift, no Foundation: the runtime, the loaders and the macro plugin share it, so
    // a definition the macro accepts is one the runtime accepts. Internal plumbing, not a product.
    .target(name: "StateMachinesNames"),
    // Schemas/ holds the JSON Schema of the definition format: data for users and tests, not code.
    .target(name: "StateMachines", dependencies: ["StateMachinesMacros", "StateMachinesSupport", "StateMachinesNames"], exclude: ["Schemas"]),
    // The SCXML import (Hierarchy §8): FoundationXML on Linux, so StateMachines keeps Foundation alone.
    .target(name: "StateMachinesSCXML", dependencies: ["StateMachines", "StateMachinesNames"]),
    // Every file is `#if SQLite`: without the trait the target is empty and GRDB is not fetched.
    .target(
      name: "StateMachinesSQLite",
      dependencies: [
        "StateMachines",
        .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["SQLite"])),
        .product(name: "Logging", package: "swift-log", condition: .when(traits: ["SQLite"])),
      ]
    ),
    // Every file is `#if PostgreSQL`: without the trait the target is empty and postgres-nio is not fetched.
    .target(
      name: "StateMachinesPostgres",
      dependencies: [
        "StateMachines",
        .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
        .product(
          name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["PostgreSQL"])),
      ]
    ),
    // Every file is `#if Inspector`: without the trait the target is empty and FlyingFox is not fetched.
    .target(
      name: "StateMachinesInspector",
      dependencies: [
        "StateMachines",
        .product(name: "FlyingFox", package: "FlyingFox", condition: .when(traits: ["Inspector"])),
      ],
      resources: [.copy("Page")]
    ),
    // The examples are executable targets, not products: `swift run Subscription` runs them in a
    // checkout, and an app that depends on the package does not see them.
    .executableTarget(
      name: "Subscription", dependencies: ["StateMachines"], path: "Examples/Subscription"),
    .executableTarget(name: "Door", dependencies: ["StateMachines"], path: "Examples/Door"),
    .executableTarget(name: "MediaPlayer", dependencies: ["StateMachines"], path: "Examples/MediaPlayer"),
    .executableTarget(name: "Search", dependencies: ["StateMachines"], path: "Examples/Search"),
    .executableTarget(
      name: "Orders",
      dependencies: [
        "StateMachines",
        .target(name: "StateMachinesSQLite", condition: .when(traits: ["SQLite"])),
        .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["SQLite"])),
      ],
      path: "Examples/Orders"),
    // Orders on PostgreSQL, shared by several application servers; runs with the trait and a URL.
    .executableTarget(
      name: "OrdersPostgres",
      dependencies: [
        "StateMachines",
        .target(name: "StateMachinesPostgres", condition: .when(traits: ["PostgreSQL"])),
        .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
      ],
      path: "Examples/OrdersPostgres"),
    // The worker processes of the multi-process store tests (Persistence §9).
    .executableTarget(
      name: "sm-store-worker",
      dependencies: [
        "StateMachines",
        .target(name: "StateMachinesSQLite", condition: .when(traits: ["SQLite"])),
        .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["SQLite"])),
        .target(name: "StateMachinesPostgres", condition: .when(traits: ["PostgreSQL"])),
        .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
      ],
      path: "Tests/StoreWorker"),
    // The table of names and paths that the runtime's and the macro's tests both run (Hierarchy N4–N6, Semantics §Names).
    .target(name: "NameModelFixture", path: "Tests/NameModelFixture"),
    .testTarget(
      name: "StateMachinesTests",
      dependencies: [
        "StateMachines", "NameModelFixture",
        // The path explorer's tests on random SCXML charts (Paths).
        "StateMachinesSCXML",
        .target(name: "StateMachinesSQLite", condition: .when(traits: ["SQLite"])),
        .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["SQLite"])),
        .product(name: "Logging", package: "swift-log", condition: .when(traits: ["SQLite", "PostgreSQL"])),
        .target(name: "StateMachinesPostgres", condition: .when(traits: ["PostgreSQL"])),
        .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
        .product(
          name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["PostgreSQL"])),
      ]),
    // The inspector's handlers without sockets and over loopback (Inspecting B.7 items 2–3); with the trait.
    .testTarget(
      name: "StateMachinesInspectorTests",
      dependencies: [
        "StateMachines",
        .target(name: "StateMachinesInspector", condition: .when(traits: ["Inspector"])),
        .product(name: "FlyingFox", package: "FlyingFox", condition: .when(traits: ["Inspector"])),
      ]),
    .testTarget(name: "StateMachinesSCXMLTests", dependencies: ["StateMachinesSCXML"]),
    .testTarget(name: "StateMachinesNamesTests", dependencies: ["StateMachinesNames"]),
    .testTarget(
      name: "StateMachinesMacrosTests",
      dependencies: [
        "StateMachinesMacros",
        "NameModelFixture",
        .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
