// The app target's entry point (an Xcode iOS App target; not part of Package.swift). See README.md.
import GitHubUserFeature
import SwiftUI

@main
struct GitHubUserApp: App {
    var body: some Scene {
        WindowGroup { ProfileView() }
    }
}
