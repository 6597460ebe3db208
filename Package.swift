// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "kbharness",
    products: [
        .library(name: "KeyboardAvoidance", targets: ["KeyboardAvoidance"]),
        .library(name: "KBHarness", targets: ["KBHarness"]),
        .library(name: "LayoutSolver", targets: ["LayoutSolver"]),
        .executable(name: "kbharness", targets: ["kbharness"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        // The engine: pure Swift, no Foundation, no I/O. Nothing here may import the harness.
        .target(name: "KeyboardAvoidance"),

        // A Cassowary constraint solver (kiwi's algorithm): pure Swift, no Foundation, imports no other target.
        .target(name: "LayoutSolver"),

        // System libsqlite3 (apt: libsqlite3-dev) and the thin Swift wrapper over it.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]
        ),
        .target(name: "KBSQLite", dependencies: ["CSQLite"]),

        // What the two build tools below share: command line, file listing, literals, build errors.
        .target(name: "EmbedderSupport"),

        // Compiles Migrations/*.sql into the KBHarness module, so the binary carries its schema.
        .executableTarget(name: "MigrationEmbedder", dependencies: ["EmbedderSupport"]),
        .plugin(name: "EmbedMigrations", capability: .buildTool(), dependencies: ["MigrationEmbedder"]),

        // Compiles Devices/*.yaml, the built-in device profiles, into the KBHarness module the same way.
        .executableTarget(name: "DeviceProfileEmbedder", dependencies: ["EmbedderSupport"]),
        .plugin(name: "EmbedDeviceProfiles", capability: .buildTool(), dependencies: ["DeviceProfileEmbedder"]),

        .target(
            name: "KBHarness",
            dependencies: [
                "KeyboardAvoidance",
                "LayoutSolver",
                "KBSQLite",
                "CSQLite",  // only for the raw C-API reference rate in `kbharness bench`
                .product(name: "Yams", package: "Yams"),
            ],
            plugins: ["EmbedMigrations", "EmbedDeviceProfiles"]
        ),
        .executableTarget(
            name: "kbharness",
            dependencies: [
                "KBHarness",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .testTarget(name: "KeyboardAvoidanceTests", dependencies: ["KeyboardAvoidance"]),
        .testTarget(name: "KBSQLiteTests", dependencies: ["KBSQLite"]),
        .testTarget(name: "LayoutSolverTests", dependencies: ["LayoutSolver"]),
        .testTarget(name: "KBHarnessTests", dependencies: ["KBHarness", "KeyboardAvoidance", "KBSQLite"],
                    // Read from the source tree by path: the JUnit XSD (xmllint) and the bad-input corpus.
                    exclude: ["Schemas", "BadInput", "InterfaceBuilder"]),
    ]
)
