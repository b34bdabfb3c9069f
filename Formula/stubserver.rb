# Homebrew formula for a tap. Put this file in a tap repository (YOUR-ORG/homebrew-tap, Formula/stubserver.rb),
# then: brew install YOUR-ORG/tap/stubserver. On each release, set url to the tag's archive and sha256 to
#   curl -sL https://github.com/YOUR-ORG/stubserver/archive/refs/tags/0.1.0.tar.gz | shasum -a 256
# (scripts/release.sh prints the command). `brew install --HEAD` builds the main branch instead.
class Stubserver < Formula
  desc "HTTP/1.1 stub server for iOS UI tests and integration tests, WireMock-compatible"
  homepage "https://github.com/YOUR-ORG/stubserver"
  url "https://github.com/YOUR-ORG/stubserver/archive/refs/tags/0.1.0.tar.gz"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  head "https://github.com/YOUR-ORG/stubserver.git", branch: "main"

  # swift-tools-version 6.1: Xcode 16.3 or later, which needs macOS Sequoia 15.2 or later.
  depends_on xcode: ["16.3", :build]
  depends_on macos: :sequoia
  uses_from_macos "swift" => :build

  def install
    # --disable-sandbox: Homebrew builds inside its own sandbox, where SwiftPM's cannot nest.
    system "swift", "build", "--disable-sandbox", "-c", "release", "--product", "stubserver"
    bin.install ".build/release/stubserver"
  end

  test do
    assert_match version.to_s, shell_output("#{bin}/stubserver --version")
  end
end
