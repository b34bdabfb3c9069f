// The one screen: a search field, a button, the profile. Accessibility identifiers are what the UI test finds.
import GitHubUserFeature
import SwiftUI

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
            case .loaded(let user):
                Text(user.name ?? user.login).accessibilityIdentifier("name")
                Text(user.location ?? "").accessibilityIdentifier("location")
            case .notFound(let login): Text("No user \(login)").accessibilityIdentifier("notFound")
            case .failed(let reason): Text(reason).accessibilityIdentifier("error")
            }
            Spacer()
        }
        .padding()
    }
}
