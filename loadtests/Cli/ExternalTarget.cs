namespace Comparator.Cli;

/// <summary>--target NAME=URL: a service already running anywhere, measured as it is.</summary>
public static class ExternalTarget
{
    /// <summary>Every --target NAME=URL of a command line (a NAME=cmd: one is a <see cref="CommandTargetSpec"/>).</summary>
    public static IReadOnlyList<(string Name, Uri BaseUrl)> FromOptions(ArgumentReader a) =>
        (a.Defines("--target") ? a.Values("--target") : Array.Empty<string>()).Where(t => !CommandTargetSpec.IsCommand(t)).Select(Parse).ToList();

    public static (string Name, Uri BaseUrl) Parse(string spec)
    {
        var eq = spec.IndexOf('=');
        if (eq <= 0 || !Uri.TryCreate(spec[(eq + 1)..], UriKind.Absolute, out var url) || url.Scheme is not ("http" or "https"))
            throw new UsageException($"--target needs NAME=http://HOST:PORT or NAME=https://HOST:PORT, not '{spec}'");
        return (spec[..eq], url);
    }
}
