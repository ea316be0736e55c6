using System;
using System.IO;
using Comparator.Contracts;
using Comparator.Targets;
using Xunit;

namespace Comparator.Tests;

/// <summary>The shared contract library on its own: formats, limits, the payload catalogue.</summary>
public sealed class ContractTests
{
    [Theory]
    [InlineData("2026-01-01T00:00:00.0000000Z")]
    [InlineData("1999-12-31T23:59:59.9999999Z")]
    public void Time_text_has_the_same_length_at_any_moment(string iso)
    {
        var moment = DateTime.Parse(iso, System.Globalization.CultureInfo.InvariantCulture, System.Globalization.DateTimeStyles.AdjustToUniversal);
        var text = TimeText.Format(moment);

        Assert.Equal(TimeText.Length, text.Length);
        Assert.Equal(TimeText.Prefix + iso, text);
        Assert.True(TimeText.TryParse(text, out var parsed));
        Assert.Equal(moment, parsed);
    }

    [Theory]
    [InlineData("Hello World. Time is: yesterday")]
    [InlineData("Goodbye World. Time is: 2026-01-01T00:00:00.0000000Z")]
    [InlineData("")]
    public void Time_text_parser_refuses_anything_else(string body) => Assert.False(TimeText.TryParse(body, out _));

    [Theory]
    [InlineData(null, true, 3)]
    [InlineData("0", true, 0)]
    [InlineData("10000", true, 10000)]
    [InlineData("10001", false, 0)]
    [InlineData("-1", false, 0)]
    [InlineData("+5", false, 0)]
    [InlineData("1e3", false, 0)]
    [InlineData("", false, 0)]
    public void Json_items_are_0_to_10000_and_default_to_3(string? raw, bool accepted, int expected)
    {
        Assert.Equal(accepted, JsonSample.TryParseItems(raw, out var items));
        if (accepted) Assert.Equal(expected, items);
    }

    [Fact]
    public void Json_sample_is_deterministic_and_round_trips()
    {
        var first = JsonSample.Serialize(JsonSample.Create(3));
        Assert.Equal(first, JsonSample.Serialize(JsonSample.Create(3)));
        Assert.Equal("[{\"Id\":1,\"Name\":\"Item 1\",\"CreatedOn\":\"2015-01-01T00:00:00Z\"},", first[..61]);
        Assert.Equal(3, JsonSample.Deserialize(first)!.Length);
    }

    [Fact]
    public void Standard_payload_files_are_the_generator_output()
    {
        var directory = BuildLayout.Discover().PayloadDirectory;
        foreach (var size in PayloadCatalogue.StandardSizes)
        {
            var file = Path.Combine(directory, PayloadCatalogue.FileName(size));
            Assert.True(File.Exists(file), file + " is missing; run: comparator payloads --write-standard");
            Assert.Equal(PayloadCatalogue.Generate(size), File.ReadAllBytes(file));
        }
    }

    [Theory]
    [InlineData(500, "500B")]
    [InlineData(4096, "4KB")]
    [InlineData(65536, "64KB")]
    [InlineData(1048576, "1MB")]
    [InlineData(1500, "1500B")]
    public void Size_labels_use_binary_units(long bytes, string label) => Assert.Equal(label, PayloadCatalogue.SizeLabel(bytes));

    [Theory]
    [InlineData(new string[0], "127.0.0.1", 5000, false, ServiceLimits.DefaultMaxBodyBytes)]
    [InlineData(new[] { "--port", "8080", "--server-header", "--max-body-bytes", "10" }, "127.0.0.1", 8080, true, 10L)]
    [InlineData(new[] { "--address", "::1" }, "::1", 5000, false, ServiceLimits.DefaultMaxBodyBytes)]
    public void Service_options_default_to_loopback_no_server_header_and_16_MiB(string[] args, string address, int port, bool serverHeader, long maxBody)
    {
        var options = ServiceOptions.Parse(args, out var error);
        Assert.NotNull(options);
        Assert.Equal("", error);
        Assert.Equal((address, port, serverHeader, maxBody), (options!.Address, options.Port, options.ServerHeader, options.MaxBodyBytes));
    }

    [Theory]
    [InlineData(new string[0], true)]
    [InlineData(new[] { "--tcp-nodelay", "off" }, false)]
    [InlineData(new[] { "--tcp-nodelay", "on" }, true)]
    public void Service_options_take_tcp_nodelay_on_by_default(string[] args, bool expected) =>
        Assert.Equal(expected, ServiceOptions.Parse(args, out _)!.TcpNoDelay);

    [Theory]
    [InlineData(new string[0], null)]
    [InlineData(new[] { "--min-threads", "256" }, 256)]
    public void Service_options_leave_the_thread_pool_minimum_alone_unless_asked(string[] args, int? expected) =>
        Assert.Equal(expected, ServiceOptions.Parse(args, out _)!.MinThreads);

    [Theory]
    [InlineData(new string[0], false)]
    [InlineData(new[] { "--port", "8080", StdinWatch.Switch }, true)]
    public void Service_options_watch_stdin_only_when_asked(string[] args, bool expected) =>
        Assert.Equal(expected, ServiceOptions.Parse(args, out _)!.StopOnStdinClose);

    [Theory]
    [InlineData("--port", "0")]
    [InlineData("--port", "x")]
    [InlineData("--address", "localhost")]
    [InlineData("--max-body-bytes", "-5")]
    [InlineData("--tcp-nodelay", "yes")]
    [InlineData("--tcp-nodelay", "")]
    [InlineData("--min-threads", "0")]
    [InlineData("--min-threads", "many")]
    [InlineData("--verbose", "")]
    public void Service_options_refuse_bad_values_with_a_message(string name, string value)
    {
        Assert.Null(ServiceOptions.Parse(value.Length == 0 ? new[] { name } : new[] { name, value }, out var error));
        Assert.Contains(name, error);
    }
}
