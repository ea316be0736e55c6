using System.IO;
using Comparator.Results;

namespace Comparator.Reports.Exporters;

/// <summary>profile.html and profile.md of a profiled run (run --profile): written only where the run has a profile.</summary>
public sealed class ProfileFiles : IExporter
{
    public string Name => "profile";
    public string? FileName => "profile.html";

    public string Render(RunReport report) => report.Run.Profile is ProfileResult profile ? ProfileReport.Html(profile) : "";

    public void Export(RunReport report, string directory)
    {
        if (report.Run.Profile is not ProfileResult profile) return;
        OutputFiles.WriteAtomically(Path.Combine(directory, "profile.html"), ProfileReport.Html(profile));
        OutputFiles.WriteAtomically(Path.Combine(directory, "profile.md"), ProfileReport.Markdown(profile));
    }
}
