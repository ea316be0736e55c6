using System.Net;
using System.ServiceModel.Channels;

namespace Comparator.WcfClassicService.Hosting
{
    /// <summary>Body-less replies with just a status, as WCF messages.</summary>
    public static class HttpAnswers
    {
        public static Message Status(HttpStatusCode status)
        {
            var message = Message.CreateMessage(MessageVersion.None, (string?)null);
            var property = ResponseProperty(message);
            property.StatusCode = status;
            property.SuppressEntityBody = true;
            return message;
        }

        /// <summary>The reply's HttpResponseMessageProperty, added when it has none.</summary>
        public static HttpResponseMessageProperty ResponseProperty(Message message)
        {
            if (message.Properties.TryGetValue(HttpResponseMessageProperty.Name, out var value) && value is HttpResponseMessageProperty existing)
                return existing;
            var created = new HttpResponseMessageProperty();
            message.Properties[HttpResponseMessageProperty.Name] = created;
            return created;
        }
    }
}
