// Command manifest-check strictly decodes every object of a rendered chart (`helm template`
// output) into its Kubernetes API type (k8s.io/api), so a misspelt or misplaced field, a wrong
// type or an unknown kind fails the chart checks, which `helm lint` does not catch.
//
// Usage: manifest-check <rendered.yaml>
//
// Objects of custom resources (Prometheus Operator's ServiceMonitor and PrometheusRule) have no
// type in k8s.io/api: they are only checked for apiVersion, kind and metadata.name.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// customResources are kinds the chart may render that k8s.io/api has no type for.
var customResources = map[string]bool{
	"monitoring.coreos.com/v1/ServiceMonitor": true,
	"monitoring.coreos.com/v1/PrometheusRule": true,
	"monitoring.coreos.com/v1/PodMonitor":     true,
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: manifest-check <rendered.yaml>")
		os.Exit(2)
	}
	problems, count, err := check(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for _, p := range problems {
		fmt.Println(p)
	}
	if len(problems) > 0 {
		os.Exit(1)
	}
	fmt.Printf("%d objects decoded strictly\n", count)
}

func check(path string) ([]string, int, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer file.Close()

	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		appsv1.AddToScheme, autoscalingv2.AddToScheme, batchv1.AddToScheme, corev1.AddToScheme,
		networkingv1.AddToScheme, policyv1.AddToScheme, rbacv1.AddToScheme,
	} {
		if err := add(scheme); err != nil {
			return nil, 0, err
		}
	}
	decoder := serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()

	var problems []string
	count := 0
	reader := utilyaml.NewYAMLReader(bufio.NewReader(file))
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, 0, err
		}
		if len(bytes.TrimSpace(stripComments(doc))) == 0 {
			continue
		}
		count++
		var head struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		if err := yaml.Unmarshal(doc, &head); err != nil {
			problems = append(problems, fmt.Sprintf("object %d: not YAML: %v", count, err))
			continue
		}
		where := fmt.Sprintf("%s/%s %q", head.APIVersion, head.Kind, head.Metadata.Name)
		if head.Metadata.Name == "" {
			problems = append(problems, where+": metadata.name is empty")
		}
		if customResources[head.APIVersion+"/"+head.Kind] {
			continue
		}
		if _, _, err := decoder.Decode(doc, nil, nil); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", where, err))
		}
	}
	return problems, count, nil
}

// stripComments drops comment-only lines, so a document holding only comments is skipped.
func stripComments(doc []byte) []byte {
	var out bytes.Buffer
	for _, line := range bytes.Split(doc, []byte("\n")) {
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			out.Write(line)
			out.WriteByte('\n')
		}
	}
	return out.Bytes()
}
