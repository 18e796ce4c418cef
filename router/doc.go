// Package router is the reference router of the hermetic profile: an
// HAProxy (Debian's build that HAPROXY_VERSION pins in
// clusters/kind/versions.env) configured by a Go controller that honours the upstream
// OpenShift router's environment contract (ROUTER_MUTUAL_TLS_AUTH*,
// ROUTER_HTTP_{REQUEST,RESPONSE}_HEADERS) and its behaviour on every
// feature the suite tests. Its parts:
//
//	hsts/     the hsts_header annotation, as upstream matches it
//	headers/  header actions: the env lists and HAProxy's strong quoting
//	haproxy/  the configuration model, its rendering, the HAProxy process
package router
