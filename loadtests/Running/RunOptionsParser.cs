using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using Comparator.Cli;
using Comparator.Contracts;
using Comparator.Results;
using Comparator.Targets;

namespace Comparator.Running;

/// <summary>Turns `run` arguments into <see cref="RunOptions"/>; every mistake is a UsageException with one line.</summary>
public static class RunOptionsParser
{
    public static readonly string[] ValueOptions =
    {
        "--targets", "--target", "--endpoints", "--sizes", "--concurrency", "--keep-alive", "--warmup", "--duration",
        "--repeat", "--baseline-target", "--out", "--json-items", "--timeout", "--driver", "--pin", "--compare-to", "--threshold", "--server-header",
    };

    public static readonly string[] FlagOptions = { "--quick" };

    public const string DefaultSizes = "500,4KB,64KB";
    /// <summary>The Web API targets that serve as the ratio's denominator, best first (the design's baseline is webapi).</summary>
    public static readonly string[] BaselineCandidates = { "webapi", "webapi-selfhost" };

    public static RunOptions Parse(IReadOnlyList<string> args, BuildLayout layout)
    {
        var a = new ArgumentReader("run", args, ValueOptions, FlagOptions);
        var quick = a.Flag("--quick");

        var (targets, unavailable) = Targets(a);
        var endpoints = List(a.Value("--endpoints") ?? string.Join(',', Endpoints.All.Select(e => e.Name)))
            .Select(name => Endpoints.Find(name) ?? throw new UsageException(
                $"run: unknown endpoint '{name}'; endpoints: {string.Join(", ", Endpoints.All.Select(e => e.Name))}"))
            .Distinct().ToList();
        var sizes = List(a.Value("--sizes") ?? DefaultSizes).Select(s => ParsePayload(s, layout.PayloadDirectory)).ToList();
        var concurrency = List(a.Value("--concurrency") ?? "100").Select(c => PositiveInt("--concurrency", c, 10_000)).Distinct().ToList();
        var keepAlive = (a.Value("--keep-alive") ?? "true") switch
        {
            "true" => true,
            "false" => false,
            var other => throw new UsageException($"run: --keep-alive takes true or false, not '{other}'"),
        };
        var warmup = Duration("--warmup", a.Value("--warmup") ?? (quick ? "0.5s" : "2s"), allowZero: true);
        var duration = Duration("--duration", a.Value("--duration") ?? (quick ? "1s" : "4s"), allowZero: false);
        var repeat = PositiveInt("--repeat", a.Value("--repeat") ?? (quick ? "1" : "3"), 100);
        var jsonItems = a.Value("--json-items") is string j
            ? (JsonSample.TryParseItems(j, out var n) ? n : throw new UsageException($"run: --json-items takes 0 to {JsonSample.MaxItems}, not '{j}'"))
            : JsonSample.DefaultItems;
        var timeout = Duration("--timeout", a.Value("--timeout") ?? "30s", allowZero: false);

        if (targets.Count == 0) throw new UsageException("run: no target to measure");
        // The baseline is the Web API side of the best pair in the run (webapi, else webapi-selfhost);
        // where neither is in the run, the first target is, and the spec says so.
        var baseline = a.Value("--baseline-target") ?? BaselineCandidates.FirstOrDefault(b => targets.Any(t => t.Name == b)) ?? targets[0].Name;
        if (targets.All(t => t.Name != baseline))
            throw new UsageException($"run: --baseline-target '{baseline}' is not one of the targets ({string.Join(", ", targets.Select(t => t.Name))})");

        return new RunOptions(targets, unavailable, endpoints, sizes, concurrency, keepAlive, warmup, duration, repeat, jsonItems,
            baseline, a.Value("--out") ?? Path.Combine(layout.RepositoryRoot, "results"), timeout,
            Drivers.DriverCatalog.Resolve(a.Value("--driver")), CpuPin.Parse(a.Value("--pin")),
            a.Value("--compare-to"), DiffCommand.ParseThreshold(a.Value("--threshold") ?? "5%"), a.OnOff("--server-header"));
    }

    private static (List<TargetPlan>, List<TargetDefinition>) Targets(ArgumentReader a)
    {
        if (a.Value("--target") is string external)
        {
            if (a.Value("--targets") is not null) throw new UsageException("run: use --targets or --target NAME=URL, not both");
            var plans = List(external).Select(ExternalTarget.Parse).Select(t => new TargetPlan(t.Name, null, t.BaseUrl)).ToList();
            return (plans, new List<TargetDefinition>());
        }
        // No --targets: the default pair (WCF against Web API); --targets all: every target that runs here.
        var error = "";
        var resolved = a.Value("--targets") is string list ? TargetCatalog.Resolve(list, out error) : TargetCatalog.DefaultRunTargets;
        if (error.Length > 0) throw new UsageException("run: " + error);
        var unavailable = a.Value("--targets") is null ? TargetCatalog.All.Where(t => !t.IsAvailable).ToList() : new List<TargetDefinition>();
        return (resolved.Select(t => new TargetPlan(t.Name, t, null)).ToList(), unavailable);
    }

    private static IEnumerable<string> List(string raw) =>
        raw.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    private static int PositiveInt(string option, string raw, int max) =>
        int.TryParse(raw, NumberStyles.None, CultureInfo.InvariantCulture, out var v) && v >= 1 && v <= max
            ? v
            : throw new UsageException($"run: {option} takes a whole number from 1 to {max}, not '{raw}'");

    /// <summary>"2s", "500ms", "1m", or a plain number of seconds.</summary>
    public static TimeSpan Duration(string option, string raw, bool allowZero, string command = "run")
    {
        var text = raw.Trim().ToLowerInvariant();
        var (number, scale) = text.EndsWith("ms") ? (text[..^2], 0.001)
            : text.EndsWith('s') ? (text[..^1], 1.0)
            : text.EndsWith('m') ? (text[..^1], 60.0)
            : (text, 1.0);
        if (!double.TryParse(number, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var value)
            || double.IsNaN(value) || value * scale > 24 * 3600 || (value <= 0 && !(allowZero && value == 0)))
            throw new UsageException($"{command}: {option} takes a {(allowZero ? "non-negative" : "positive")} duration such as 2s or 500ms, not '{raw}'");
        return TimeSpan.FromSeconds(value * scale);
    }

    /// <summary>0, 500, 4KB, 1MB (binary units), or the name of a file in payloads/.</summary>
    public static Payload ParsePayload(string raw, string payloadDirectory, string command = "run")
    {
        var bytes = ParseSize(raw);
        if (bytes is long size)
        {
            if (size > ServiceLimits.DefaultMaxBodyBytes)
                throw new UsageException($"{command}: size {raw} is over the services' {ServiceLimits.DefaultMaxBodyBytes / (1024 * 1024)} MiB body limit");
            var standard = Path.Combine(payloadDirectory, PayloadCatalogue.FileName((int)size));
            if (File.Exists(standard))
                return new Payload(new PayloadSpec(PayloadCatalogue.SizeLabel(size), size, "payloads/" + Path.GetFileName(standard)), File.ReadAllBytes(standard));
            return new Payload(new PayloadSpec(PayloadCatalogue.SizeLabel(size), size, "generated"), PayloadCatalogue.Generate((int)size));
        }

        var file = Path.Combine(payloadDirectory, raw);
        if (raw.Contains('/') || raw.Contains('\\') || !File.Exists(file))
            throw new UsageException($"{command}: '{raw}' is neither a size (0, 500, 4KB, 1MB) nor a file in {payloadDirectory}");
        byte[] content;
        try { content = File.ReadAllBytes(file); }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        { throw new UsageException($"{command}: cannot read payload file {file}: {e.Message}"); }
        if (content.LongLength > ServiceLimits.DefaultMaxBodyBytes)
            throw new UsageException($"{command}: payload file {raw} is over the services' 16 MiB body limit");
        return new Payload(new PayloadSpec(raw, content.LongLength, "payloads/" + raw), content);
    }

    private static long? ParseSize(string raw)
    {
        var text = raw.Trim().ToUpperInvariant();
        var (number, scale) = text.EndsWith("KB") ? (text[..^2], 1024L)
            : text.EndsWith("MB") ? (text[..^2], 1024L * 1024)
            : text.EndsWith('B') ? (text[..^1], 1L)
            : (text, 1L);
        return long.TryParse(number, NumberStyles.None, CultureInfo.InvariantCulture, out var n) ? n * scale : null;
    }
}
