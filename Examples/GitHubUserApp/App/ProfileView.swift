// The one screen: a search field, a button, the profile and its live activity (LiveActivityView).
// Accessibility identifiers are what the UI test finds.
import GitHubUserFeature
import SwiftUI
import UIKit

struct ProfileView: View {
    @State private var login = ""
    @State private var state: ProfileState = .idle
    @State private var model = ProfileModel()

    var body: some View {
        VStack(spacing: 16) {
            TextField("GitHub user", text: $login)
                .textFieldStyle(.roundedBorder)
                .textInputAutocapitalization(.never)
                .accessibilityIdentifier("username")
            Button("Search") {
                Task {
                    await model.search(login)
                    state = model.state
                }
            }
            .accessibilityIdentifier("Search")
            switch state {
            case .idle: EmptyView()
            case .loading: ProgressView()
            case .loaded(let profile):
                // From the avatar host (a second backend); nothing when it could not be had.
                if let data = profile.avatar, let image = UIImage(data: data) {
                    Image(uiImage: image)
                        .resizable()
                        .frame(width: 120, height: 120)
                        .clipShape(Circle())
                        .accessibilityLabel("Avatar of \(profile.user.login)")
                        .accessibilityIdentifier("avatar")
                }
                Text(profile.user.name ?? profile.user.login).accessibilityIdentifier("name")
                Text(profile.user.location ?? "").accessibilityIdentifier("location")
                // From the API's GraphQL endpoint: the numbers, or why there are none.
                Text(profile.stats.text).accessibilityIdentifier("stats")
                // From the API's server-sent-events endpoint, live while the profile shows.
                LiveActivityView(login: profile.user.login)
            case .notFound(let login): Text("No user \(login)").accessibilityIdentifier("notFound")
            case .failed(let reason): Text(reason).accessibilityIdentifier("error")
            }
            Spacer()
        }
        .padding()
    }
}
