// The profile's live activity: events from GET /users/{login}/events/live (server-sent events), newest first.
// The UI test finds the list by "liveActivity", the status line by "liveStatus", and each row by its text.
import GitHubUserFeature
import SwiftUI

struct LiveActivityView: View {
    let login: String
    @State private var items: [ActivityItem] = []
    @State private var status: LiveStatus = .idle

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            HStack {
                Text("Live activity").font(.headline)
                Spacer()
                Text(status.text).font(.caption).foregroundStyle(.secondary).accessibilityIdentifier("liveStatus")
            }
            List(items) { item in
                Text(item.text).accessibilityIdentifier("activity-\(item.id)")
            }
            .listStyle(.plain)
            .accessibilityIdentifier("liveActivity")
        }
        // Runs while the view is on screen (and again for another login): leaving cancels the stream.
        .task(id: login) {
            items = []
            let model = LiveActivityModel(login: login)
            await model.run {
                items = model.items
                status = model.status
            }
        }
    }
}
