// Swagger UI over the gateway's own contract. A separate file, not an inline script, so the page's
// Content-Security-Policy can forbid inline scripts.

// "Try it out" must call the gateway that serves this page: the spec's example server (127.0.0.1:8080)
// is another origin, which the page's CSP (connect-src 'self') refuses. So the loaded spec's servers are
// replaced by this origin before Swagger UI reads them.
const ThisGatewayServer = () => ({
  statePlugins: {
    spec: {
      wrapActions: {
        updateJsonSpec: (original) => (spec) => original({ ...spec, servers: [{ url: location.origin, description: 'This gateway' }] }),
      },
    },
  },
});

window.ui = SwaggerUIBundle({
  url: '/openapi.yaml',
  dom_id: '#swagger-ui',
  deepLinking: true,
  plugins: [ThisGatewayServer],
  // "Try it out" calls this gateway; the key is typed into Authorize and kept in the page only.
  persistAuthorization: false,
  validatorUrl: null,
});
