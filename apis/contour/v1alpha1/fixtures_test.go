package v1alpha1_test

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var now = metav1.NewTime(time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC))
